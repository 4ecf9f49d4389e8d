/// The identity of an object as a predicate holds it: what a store's object IDs are to the
/// language, which knows no store. Two are equal when their identities are.
public struct PredicateObject: Hashable, Sendable, CustomStringConvertible {
    /// The store's identity of the object (`DataStore`'s `ObjectID`).
    public let identity: any PredicateObjectIdentity

    public init(_ identity: some PredicateObjectIdentity) {
        self.identity = identity
    }

    public static func == (lhs: PredicateObject, rhs: PredicateObject) -> Bool {
        lhs.identity.isEqual(to: rhs.identity)
    }

    public func hash(into hasher: inout Hasher) {
        identity.hash(into: &hasher)
    }

    public var description: String { identity.description }
}

/// A type whose values identify objects in predicates (`SELF == %@`, `author == %@`).
public protocol PredicateObjectIdentity: Hashable, Sendable, CustomStringConvertible {}

extension PredicateObjectIdentity {
    fileprivate func isEqual(to other: any PredicateObjectIdentity) -> Bool {
        (other as? Self) == self
    }
}

/// An argument whose key paths a substitution reads as it substitutes: `$FETCH_SOURCE.author`
/// with an object for `FETCH_SOURCE` becomes the object's author now.
public protocol PredicateKeyPathReading: PredicateArgument {
    /// The value at `path` (attributes and to-one relationships), or nil when the path does not
    /// lead to one.
    func predicateValue(atKeyPath path: [String]) -> PredicateValue?
}
