import DataModel
import PredicateLanguage

/// The predicates a model holds — its fetch request templates' and its fetched properties' —
/// read in Core Data's predicate language, a predicate that cannot be read an error located at the
/// element that holds it: what `lint` reports and `generate` refuses.
public enum ModelPredicates {
    /// An error for every predicate of `model` that cannot be read.
    public static func diagnostics(of model: Model) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for entity in model.entities {
            for property in entity.fetchedProperties {
                if let format = property.fetchRequest.predicate { _ = parse(format, of: property, into: &diagnostics) }
            }
        }
        for template in model.fetchRequestTemplates {
            if let format = template.predicate { _ = parse(format, of: template, into: &diagnostics) }
        }
        return diagnostics
    }

    /// The predicate of the fetched property `property`, or nil with its error added to `diagnostics`.
    static func parse(_ format: String, of property: FetchedProperty, into diagnostics: inout [Diagnostic]) -> ObjectPredicate? {
        parse(format, at: property.location, what: "fetched property '\(property.name)'", into: &diagnostics)
    }

    /// The predicate of the fetch request template `template`, or nil with its error added to `diagnostics`.
    static func parse(_ format: String, of template: FetchRequestTemplate, into diagnostics: inout [Diagnostic]) -> ObjectPredicate? {
        parse(format, at: template.location, what: "fetch request '\(template.name)'", into: &diagnostics)
    }

    private static func parse(_ format: String, at location: SourceLocation, what: String, into diagnostics: inout [Diagnostic]) -> ObjectPredicate? {
        do {
            return try ObjectPredicate(format: format, arguments: [])
        } catch {
            diagnostics.append(.error("\(what): \(error)", at: location))
            return nil
        }
    }
}
