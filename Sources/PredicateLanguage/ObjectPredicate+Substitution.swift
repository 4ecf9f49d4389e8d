/// `$VARIABLE` placeholders, as model fetch-request templates use them (`price < $MAX_PRICE`).
extension ObjectPredicate {
    /// The predicate with each `$NAME` in `variables` replaced by its value. Variables not in
    /// `variables` stay; fetching with one left fails with `FetchError.unboundVariable`. A
    /// `SUBQUERY`'s own variable is never replaced.
    ///
    /// A key path from an object variable is read from the object now, as fetched properties use
    /// `$FETCH_SOURCE`: with `["FETCH_SOURCE": book]`, `$FETCH_SOURCE.author` becomes `book.author`.
    public func withSubstitutionVariables(_ variables: [String: any PredicateArgument]) -> ObjectPredicate {
        let objects = variables.compactMapValues { $0 as? any PredicateKeyPathReading }
        return substituting(Substitution(values: variables.mapValues(\.predicateValue), objects: objects), bound: [])
    }

    /// The names of the `$VARIABLE`s still to substitute, in order of first use.
    public var substitutionVariables: [String] {
        var names: [String] = []
        forEachFreeVariable(bound: []) { if !names.contains($0) { names.append($0) } }
        return names
    }

    package func substituting(_ values: Substitution, bound: Set<String>) -> ObjectPredicate {
        switch self {
        case .constant: self
        case .not(let predicate): .not(predicate.substituting(values, bound: bound))
        case .and(let terms): .and(terms.map { $0.substituting(values, bound: bound) })
        case .or(let terms): .or(terms.map { $0.substituting(values, bound: bound) })
        case .comparison(let comparison): .comparison(comparison.mapSides { $0.substituting(values, bound: bound) })
        }
    }

    package func forEachFreeVariable(bound: Set<String>, _ body: (String) -> Void) {
        switch self {
        case .constant: break
        case .not(let predicate): predicate.forEachFreeVariable(bound: bound, body)
        case .and(let terms), .or(let terms): for term in terms { term.forEachFreeVariable(bound: bound, body) }
        case .comparison(let comparison):
            comparison.lhs.forEachFreeVariable(bound: bound, body)
            comparison.rhs.forEachFreeVariable(bound: bound, body)
        }
    }
}

/// The values of substitution variables, and the objects among them for key paths.
package struct Substitution {
    package var values: [String: PredicateValue]
    package var objects: [String: any PredicateKeyPathReading] = [:]

    package init(values: [String: PredicateValue], objects: [String: any PredicateKeyPathReading] = [:]) {
        self.values = values
        self.objects = objects
    }
}

extension PredicateExpression {
    package func substituting(_ values: Substitution, bound: Set<String>) -> PredicateExpression {
        switch self {
        case .constant(.fetch(var fetch)):
            // A fetch's own predicate takes the same variables; it is its own scope.
            fetch.predicate = fetch.predicate?.substituting(values, bound: [])
            return .constant(.fetch(fetch))
        case .evaluatedObject, .constant: return self
        case .variable(let name): return bound.contains(name) ? self : values.values[name].map(PredicateExpression.value) ?? self
        case .keyPath(.variable(let name), let path) where !bound.contains(name) && values.objects[name] != nil:
            return values.objects[name]!.predicateValue(atKeyPath: path).map(PredicateExpression.value) ?? self
        case .collection(let elements): return .collection(elements.map { $0.substituting(values, bound: bound) })
        case .keyPath(let base, let path): return .keyPath(base.substituting(values, bound: bound), path)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: collection.substituting(values, bound: bound), variable: variable,
                predicate: predicate.substituting(values, bound: bound.union([variable])))
        case .function(let function, let arguments): return .function(function, arguments.map { $0.substituting(values, bound: bound) })
        case .conditional(let condition, let whenTrue, let whenFalse):
            return .conditional(condition.substituting(values, bound: bound), whenTrue.substituting(values, bound: bound), whenFalse.substituting(values, bound: bound))
        case .index(let collection, let index): return .index(collection.substituting(values, bound: bound), index)
        case .method(let receiver, let selector, let arguments):
            return .method(receiver.substituting(values, bound: bound), selector: selector, arguments.map { $0.substituting(values, bound: bound) })
        }
    }

    package func forEachFreeVariable(bound: Set<String>, _ body: (String) -> Void) {
        switch self {
        case .constant(.fetch(let fetch)): fetch.predicate?.forEachFreeVariable(bound: [], body)
        case .evaluatedObject, .constant: break
        case .variable(let name): if !bound.contains(name) { body(name) }
        case .collection(let elements): for element in elements { element.forEachFreeVariable(bound: bound, body) }
        case .keyPath(let base, _): base.forEachFreeVariable(bound: bound, body)
        case .subquery(let collection, let variable, let predicate):
            collection.forEachFreeVariable(bound: bound, body)
            predicate.forEachFreeVariable(bound: bound.union([variable]), body)
        case .function(_, let arguments): for argument in arguments { argument.forEachFreeVariable(bound: bound, body) }
        case .conditional(let condition, let whenTrue, let whenFalse):
            condition.forEachFreeVariable(bound: bound, body)
            whenTrue.forEachFreeVariable(bound: bound, body)
            whenFalse.forEachFreeVariable(bound: bound, body)
        case .method(let receiver, _, let arguments):
            receiver.forEachFreeVariable(bound: bound, body)
            for argument in arguments { argument.forEachFreeVariable(bound: bound, body) }
        case .index(let collection, _): collection.forEachFreeVariable(bound: bound, body)
        }
    }
}
