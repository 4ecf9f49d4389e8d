import GRDB

extension EntityDescription {
    /// The `Z_ENT` condition on `t0` that keeps the rows of this entity (and of its subentities,
    /// when `includesSubentities`) among the others of its table; `nil` when there are none to
    /// leave out.
    func rowFilter(includesSubentities: Bool) -> SQL? {
        guard hasSubentities || number != rootNumber || !includesSubentities else { return nil }
        let numbers = includesSubentities ? subtreeNumbers : number...number
        return numbers.count == 1 ? "t0.\(.Z_ENT) = \(numbers.lowerBound)" : "t0.\(.Z_ENT) BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
    }
}
