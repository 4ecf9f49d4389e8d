import DataModel
import PredicateLanguage

/// Checks a mapping model against the two model versions it connects, before anything runs it:
/// every entity and property it names exists, every value expression reads, `$source` key paths
/// start at a property of the source entity, `$entityPolicy` is called only where a policy class
/// is named, and mappings named by `$manager` calls and relationship mappings exist.
///
///     let problems = MappingModelLinter(source: version1, destination: version2).diagnostics(of: mapping)
public struct MappingModelLinter: Sendable {
    public let source: Model
    public let destination: Model

    public init(source: Model, destination: Model) {
        self.source = source
        self.destination = destination
    }

    /// The variables a value expression may read, as Core Data's migration manager binds them.
    static let variables: Set<String> = ["source", "destination", "manager", "entityPolicy", "entityMapping", "propertyMapping"]

    public func diagnostics(of mapping: MappingModel) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var names: Set<String> = []
        let mappingNames = Set(mapping.entityMappings.map(\.name))
        for entityMapping in mapping.entityMappings {
            if !names.insert(entityMapping.name).inserted {
                found.append(.error("two entity mappings are named \(entityMapping.name)", at: entityMapping.location))
            }
            found += check(entityMapping, mappingNames: mappingNames)
        }
        return found.sortedByLocation()
    }

    private func check(_ mapping: EntityMapping, mappingNames: Set<String>) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let sourceEntity = mapping.sourceEntityName.flatMap(source.entity(named:))
        let destinationEntity = mapping.destinationEntityName.flatMap(destination.entity(named:))
        if let name = mapping.sourceEntityName, sourceEntity == nil {
            found.append(.error("\(mapping.name) maps from entity \(name), which the source version \(versionName(source)) does not have", at: mapping.location))
        }
        if let name = mapping.destinationEntityName, destinationEntity == nil {
            found.append(.error("\(mapping.name) maps to entity \(name), which the destination version \(versionName(destination)) does not have", at: mapping.location))
        }
        for (properties, isRelationship) in [(mapping.attributeMappings, false), (mapping.relationshipMappings, true)] {
            for property in properties {
                if let destinationEntity {
                    let exists = isRelationship
                        ? destination.allProperties(of: destinationEntity).contains { if case .relationship(let r) = $0 { r.name == property.name } else { false } }
                        : destination.allAttributes(of: destinationEntity).contains { $0.name == property.name }
                    if !exists {
                        found.append(.error("\(mapping.name): the destination entity \(destinationEntity.name) has no \(isRelationship ? "relationship" : "attribute") \(property.name)", at: property.location))
                    }
                }
                if let name = property.sourceMappingName, !mappingNames.contains(name) {
                    found.append(.error("\(mapping.name).\(property.name) links to the objects of entity mapping \(name), which the mapping model does not have", at: property.location))
                }
                guard let text = property.valueExpression else { continue }
                do {
                    let expression = try PredicateExpression(format: text)
                    found += check(expression, of: property, in: mapping, sourceEntity: sourceEntity, mappingNames: mappingNames)
                } catch {
                    found.append(.error("\(mapping.name).\(property.name): the value expression '\(text)' does not read: \(error)", at: property.location))
                }
            }
        }
        return found
    }

    /// The expression's variables, `$source` key paths and method calls.
    private func check(
        _ expression: PredicateExpression, of property: PropertyMapping, in mapping: EntityMapping, sourceEntity: Entity?, mappingNames: Set<String>
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let subject = "\(mapping.name).\(property.name)"
        func visit(_ expression: PredicateExpression) {
            switch expression {
            case .variable(let name) where !Self.variables.contains(name):
                found.append(.warning("\(subject) reads $\(name), which a migration does not bind", at: property.location))
            case .keyPath(.variable("source"), let components):
                if let sourceEntity, let first = components.first, !first.hasPrefix("@"),
                   !source.allProperties(of: sourceEntity).contains(where: { $0.name == first })
                {
                    found.append(.error("\(subject) reads $source.\(first), which the source entity \(sourceEntity.name) does not have", at: property.location))
                }
            case .keyPath(let base, _):
                visit(base)
            case .method(let receiver, let selector, let arguments):
                if case .variable("entityPolicy") = receiver, mapping.migrationPolicyClassName == nil {
                    found.append(.error("\(subject) calls $entityPolicy's \(selector), but \(mapping.name) names no migration policy class", at: property.location))
                }
                if case .variable("manager") = receiver, selector.hasPrefix("destinationInstancesForEntityMappingNamed:"),
                   case .constant(.attribute(.string(let name)))? = arguments.first, !mappingNames.contains(name)
                {
                    found.append(.error("\(subject) asks for the objects of entity mapping \(name), which the mapping model does not have", at: property.location))
                }
                visit(receiver)
                arguments.forEach(visit)
            case .collection(let elements), .function(_, let elements):
                elements.forEach(visit)
            case .conditional(_, let whenTrue, let whenFalse):
                visit(whenTrue)
                visit(whenFalse)
            case .index(let collection, _):
                visit(collection)
            case .subquery(let collection, _, _):
                visit(collection)
            case .variable, .constant, .evaluatedObject:
                break
            }
        }
        visit(expression)
        return found
    }

    private func versionName(_ model: Model) -> String {
        model.versionName ?? model.path
    }
}
