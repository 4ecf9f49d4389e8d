import DataModel
import PredicateLanguage

/// An entity mapping's attribute mappings resolved once against its source and destination
/// entities, so that making each object costs what copying its values costs: each mapping a
/// destination slot and where its value comes from.
struct AttributeMappingPlan {
    enum ValueSource {
        /// The source object's attribute in this slot (`$source.title`, or no expression), and
        /// whether the value must be converted to the destination's type.
        case sourceSlot(Int, converted: Bool)
        /// The same value for every object (`YES`, `"Untitled"`), of the destination's type.
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
    /// Whether an object's values can be made all at once, before it is inserted: no expression
    /// to evaluate with the object at hand, no derived attribute, and no `awakeFromInsert` that
    /// would run before them in Core Data and could set them.
    let makesValuesAtOnce: Bool
    /// The step that sets each destination slot, if any.
    private let stepBySlot: [Int?]

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
            func copied(_ sourceAttribute: AttributeDescription) -> ValueSource {
                .sourceSlot(sourceAttribute.slot, converted: sourceAttribute.type != attribute.type || attribute.type == .composite)
            }
            let value: ValueSource
            if let text = property.valueExpression {
                switch try parse(text) {
                case .constant(.attribute(let constant)) where attribute.coerced(constant) != nil:
                    value = .constant(attribute.coerced(constant)!)
                case .keyPath(.variable("source"), let path) where path.count == 1 && source.attribute(named: path[0]) != nil:
                    value = copied(source.attribute(named: path[0])!)
                default:
                    value = .expression(text)
                }
            } else if let sourceAttribute = source.attribute(named: property.name) {
                value = copied(sourceAttribute)
            } else {
                continue
            }
            steps.append(Step(property: property.name, destinationSlot: attribute.slot, value: value))
        }
        self.steps = steps
        var stepBySlot = [Int?](repeating: nil, count: destination.attributes.count)
        for (index, step) in steps.enumerated() { stepBySlot[step.destinationSlot] = index }
        self.stepBySlot = stepBySlot
        makesValuesAtOnce = !destination.hasLifecycle
            && steps.allSatisfy { step in
                if case .expression = step.value { return false }
                return !destination.attributes[step.destinationSlot].isDerived
            }
    }

    /// The value step `step` gives an object made from `source`, of the destination's type, or
    /// `nil` for an expression or a value the destination's type cannot hold.
    func value(of step: Step, from source: ManagedObject) -> AttributeValue? {
        switch step.value {
        case .sourceSlot(let slot, let converted):
            let value = source.attributeValue(atSlot: slot)
            return converted ? destination.attributes[step.destinationSlot].coerced(value) : value
        case .constant(let constant):
            return constant
        case .expression:
            return nil
        }
    }

    /// Every value of an object made from `source` (the destination's default where no step sets
    /// one), written into `writer`'s buffers; when one cannot be held, the step whose value it is.
    func values(from source: ManagedObject, into writer: inout AttributeValues.Writer) -> Result<AttributeValues, StepFailure> {
        let defaults = destination.rowLayout.defaultValues
        var failure: StepFailure?
        let values = writer.row(count: stepBySlot.count) { slot in
            guard let index = stepBySlot[slot] else { return defaults[slot] }
            guard let value = value(of: steps[index], from: source) else {
                if case .sourceSlot(let sourceSlot, _) = steps[index].value {
                    failure = StepFailure(step: steps[index], value: source.attributeValue(atSlot: sourceSlot))
                }
                return .null
            }
            return value
        }
        return failure.map { .failure($0) } ?? .success(values)
    }

    /// A value a step could not give the destination's attribute.
    struct StepFailure: Error {
        var step: Step
        var value: AttributeValue
    }
}
