/// A fetch whose results a predicate compares with: Core Data's `NSFetchRequestExpression`, a
/// `%@` argument that the store runs as a subquery of the statement it is part of.
///
///     // Keep the newest object of each key: every other one is a duplicate.
///     let newest = PredicateFetch(entityName: "Item", result: .values(keyPath: "SELF", function: .max, groupedBy: ["key"]))
///     let duplicates = try ObjectPredicate(format: "NOT (SELF IN %@)", newest)
///
/// It has no text of its own in the format syntax: its description, `FETCH(…)`, is for reading.
public struct PredicateFetch: Sendable, Hashable, CustomStringConvertible {
    /// What the fetch gives the comparison it is part of.
    public enum Result: Sendable, Hashable {
        /// The objects that match, for `SELF IN %@` or `author IN %@`.
        case objects
        /// How many objects match (`countOnly`), a number: `%@ > 10`.
        case count
        /// A dictionary fetch of one property: the value of `keyPath` (an attribute, or a to-one
        /// relationship's object, reached through to-ones; `SELF` for the object itself) for each
        /// match, or, under `function` (`count:`, `sum:`, `average:`, `min:`, `max:`), for each
        /// group of matches with equal `groupedBy` key paths (all of them as one group when
        /// there are none).
        case values(keyPath: String, function: PredicateFunction? = nil, groupedBy: [String] = [])
    }

    /// The entity fetched.
    public var entityName: String
    /// Which of its objects the fetch takes; `nil` for every one.
    public var predicate: ObjectPredicate?
    /// Whether objects of its subentities are fetched too.
    public var includesSubentities: Bool
    public var result: Result

    public init(entityName: String, predicate: ObjectPredicate? = nil, includesSubentities: Bool = true, result: Result = .objects) {
        self.entityName = entityName
        self.predicate = predicate
        self.includesSubentities = includesSubentities
        self.result = result
    }

    /// `FETCH(Item WHERE price > 5)`, `FETCH(COUNT Item)`, `FETCH(max:(SELF) OF Item BY key)`.
    public var description: String {
        var text: String
        switch result {
        case .objects: text = entityName
        case .count: text = "COUNT " + entityName
        case .values(let keyPath, nil, _): text = keyPath + " OF " + entityName
        case .values(let keyPath, let function?, _): text = function.rawValue + "(" + keyPath + ") OF " + entityName
        }
        if !includesSubentities { text += " ONLY" }
        if case .values(_, _, let groups) = result, !groups.isEmpty { text += " BY " + groups.joined(separator: ", ") }
        if let predicate { text += " WHERE \(predicate)" }
        return "FETCH(" + text + ")"
    }
}

extension PredicateFetch: PredicateArgument {
    public var predicateValue: PredicateValue { .fetch(self) }
}
