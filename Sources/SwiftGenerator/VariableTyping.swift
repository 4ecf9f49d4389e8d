import DataModel
import PredicateLanguage

/// The Swift type of each `$VARIABLE` of a template predicate, read from what it is compared with:
/// `price < $maxPrice` makes `maxPrice` a `Double` when `price` is a Double attribute.
struct VariableTyping {
    let model: Model
    /// The Swift class of each entity, by entity name.
    let classNames: [String: String]

    /// The variables of `predicate` in order of first use, each with its Swift type. A variable
    /// used with two different types, or with nothing typed, is `any PredicateArgument`.
    func parameters(of predicate: ObjectPredicate, entity: Entity) -> [(variable: String, swiftType: String)] {
        var order: [String] = []
        var types: [String: String?] = [:]
        func note(_ variable: String, _ type: String?) {
            if types[variable] == nil { order.append(variable); types[variable] = .some(type) }
            else if types[variable]! != type { types[variable] = .some(nil) }
        }
        func visit(_ predicate: ObjectPredicate, subqueryVariables: Set<String>) {
            switch predicate {
            case .constant: break
            case .not(let inner): visit(inner, subqueryVariables: subqueryVariables)
            case .and(let parts), .or(let parts): parts.forEach { visit($0, subqueryVariables: subqueryVariables) }
            case .comparison(let comparison):
                for (side, other, isRight) in [(comparison.lhs, comparison.rhs, false), (comparison.rhs, comparison.lhs, true)] {
                    collectNested(side, subqueryVariables: subqueryVariables)
                    guard case .variable(let name) = side, !subqueryVariables.contains(name) else { continue }
                    note(name, type(comparedWith: other, operator: comparison.operator, variableIsRight: isRight, entity: entity))
                }
            }
        }
        func collectNested(_ expression: PredicateExpression, subqueryVariables: Set<String>) {
            switch expression {
            case .subquery(let collection, let variable, let inner):
                collectNested(collection, subqueryVariables: subqueryVariables)
                visit(inner, subqueryVariables: subqueryVariables.union([variable]))
            case .collection(let elements):
                for element in elements {
                    if case .variable(let name) = element, !subqueryVariables.contains(name) { note(name, nil) }
                    collectNested(element, subqueryVariables: subqueryVariables)
                }
            case .keyPath(let base, _):
                if case .variable(let name) = base, !subqueryVariables.contains(name) { note(name, nil) }
                collectNested(base, subqueryVariables: subqueryVariables)
            case .function(_, let arguments):
                // An operand of an operator takes the type of the attribute on its other side
                // (`pageCount & $mask`); other operands are typed by nothing.
                for (index, argument) in arguments.enumerated() {
                    if case .variable(let name) = argument, !subqueryVariables.contains(name) {
                        let other = arguments.count == 2 ? arguments[1 - index] : nil
                        if case .keyPath(.evaluatedObject, let components)? = other { note(name, type(of: components, from: entity)) } else { note(name, nil) }
                    }
                    collectNested(argument, subqueryVariables: subqueryVariables)
                }
            case .conditional(let condition, let whenTrue, let whenFalse):
                visit(condition, subqueryVariables: subqueryVariables)
                for branch in [whenTrue, whenFalse] {
                    if case .variable(let name) = branch, !subqueryVariables.contains(name) { note(name, nil) }
                    collectNested(branch, subqueryVariables: subqueryVariables)
                }
            case .index(let collection, _):
                if case .variable(let name) = collection, !subqueryVariables.contains(name) { note(name, nil) }
                collectNested(collection, subqueryVariables: subqueryVariables)
            default: break
            }
        }
        visit(predicate, subqueryVariables: [])
        return order.map { ($0, (types[$0] ?? nil) ?? "any PredicateArgument") }
    }

    private func type(
        comparedWith other: PredicateExpression, operator comparisonOperator: ComparisonOperator,
        variableIsRight: Bool, entity: Entity
    ) -> String? {
        if comparisonOperator.isStringOperator { return "String" }
        guard case .keyPath(.evaluatedObject, let components) = other, let element = type(of: components, from: entity)
        else { return nil }
        switch comparisonOperator {
        case .in: return variableIsRight ? "[\(element)]" : element
        case .between: return variableIsRight ? "[\(element)]" : nil
        default: return element
        }
    }

    /// The Swift type of the value at `components` from `entity`: an attribute's type, a
    /// relationship's destination class, `Int` for `@count`.
    private func type(of components: [String], from entity: Entity) -> String? {
        var current = entity
        for (offset, component) in components.enumerated() {
            let isLast = offset == components.count - 1
            if component == "@count" { return isLast ? "Int" : nil }
            if component.hasPrefix("@") {
                guard offset == components.count - 2, let attribute = attribute(components[offset + 1], of: current) else { return nil }
                return component == "@avg" ? "Double" : SwiftType.standard(for: attribute.type)
            }
            switch model.property(named: component, in: current) {
            case .attribute(let attribute)?:
                return isLast ? SwiftType.standard(for: attribute.type) : nil
            case .relationship(let relationship)?:
                guard let destination = model.destination(of: relationship) else { return nil }
                if isLast { return classNames[destination.name] }
                current = destination
            default:
                return nil
            }
        }
        return nil
    }

    private func attribute(_ name: String, of entity: Entity) -> Attribute? {
        if case .attribute(let attribute)? = model.property(named: name, in: entity) { return attribute }
        return nil
    }
}
