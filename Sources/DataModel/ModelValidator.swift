/// Checks a parsed model for semantic problems and returns them as located diagnostics.
///
/// It never throws and never stops at the first problem: every finding is collected, and models
/// with broken references (unknown entities, inheritance cycles) are still walked safely.
///
///     let diagnostics = ModelValidator().validate(model)
///     if diagnostics.containsErrors { … }
public struct ModelValidator: Sendable {
    public init() {}

    /// All problems of `model`, in file order.
    public func validate(_ model: Model) -> [Diagnostic] {
        var findings = Findings()
        checkEntityNames(model, &findings)
        for entity in model.entities {
            checkInheritance(of: entity, in: model, &findings)
            checkPropertyNames(of: entity, in: model, &findings)
            for attribute in entity.attributes {
                checkAttribute(attribute, of: entity, in: model, &findings)
            }
            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity, in: model, &findings)
            }
            checkFetchedProperties(of: entity, in: model, &findings)
            checkIndexesAndConstraints(of: entity, in: model, &findings)
        }
        for composite in model.composites {
            for attribute in composite.attributes {
                checkAttributeValues(attribute, owner: "composite '\(composite.name)'", in: model, &findings)
            }
        }
        checkTemplatesAndConfigurations(model, &findings)
        return findings.diagnostics.sortedByLocation()
    }
}

/// The diagnostics a validation run has collected.
struct Findings {
    var diagnostics: [Diagnostic] = []

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }
}
