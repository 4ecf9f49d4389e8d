import DataModel
import PredicateLanguage

/// An entity mapping's attribute mappings resolved once against its source and destination
/// entities, so that making each object costs what copying its values costs: each mapping a
/// destination slot and where its value comes from.
struct AttributeMappingPlan {
    enum ValueSource {
        /// The source object's attribute in this slot (`$source.title`, or no expression).
        case sourceSlot(Int)
        /// The same value for every object (`YES`, `"Untitled"`).
        case constant(AttributeValue)
        /// Any other expression, evaluated per object.
        case expression(String)
    }

    struct Step {
        var property: String
        var destinationSlot: Int
        var value: ValueSource
    }

    /// The entities the plan was made for: objects of others take the general way.
    let source: EntityDescription
    let destination: EntityDescription
    let steps: [Step]

    /// The plan of `mapping`, whose expressions `parse` reads; a property the destination does
    /// not have is an unknown key, as setting it would be.
    init(_ mapping: EntityMapping, source: EntityDescription, destination: EntityDescription,
         parse: (String) throws -> PredicateExpression) throws {
        self.source = source
        self.destination = destination
        var steps: [Step] = []
        for property in mapping.attributeMappings {
            guard let attribute = destination.attribute(named: property.name) else {
                throw ContextError.unknownKey(entity: destination.name, key: property.name)
            }
            let value: ValueSource
            if let text = property.valueExpression {
                switch try parse(text) {
                case .constant(.attribute(let constant)):
                    value = .constant(constant)
                case .keyPath(.variable("source"), let path) where path.count == 1 && source.attribute(named: path[0]) != nil:
                    value = .sourceSlot(source.attribute(named: path[0])!.slot)
                default:
                    value = .expression(text)
                }
            } else if let sourceAttribute = source.attribute(named: property.name) {
                value = .sourceSlot(sourceAttribute.slot)
            } else {
                continue
            }
            steps.append(Step(property: property.name, destinationSlot: attribute.slot, value: value))
        }
        self.steps = steps
    }
}
