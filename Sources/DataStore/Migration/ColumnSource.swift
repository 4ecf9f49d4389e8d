import DataModel
import StoreSchema

/// Where the values of one destination column come from, for the rows of one source table.
indirect enum ColumnSource: Equatable {
    /// A source column, maybe transformed.
    case carried(String, Transform)
    /// An SQL literal: a default value for rows that had none.
    case literal(SQL)
    /// Different sources for different entities' rows, by source entity number.
    case perEntity([Int: ColumnSource])
    /// Nothing: NULL, or written later from a relationship's pair table.
    case empty

    enum Transform: Equatable {
        case none
        /// Entity numbers, mapped to the destination's.
        case renumbered
        /// `COALESCE(column, default)`: a value became required and has a default.
        case defaulted(SQL)
        /// The attribute's type changed: its values are converted, and given the default when
        /// they became required and have one.
        case converted(from: AttributeType, to: AttributeType, defaulted: SQL?)
    }

    /// The SQL for a row whose columns are read through `prefix` (`x.` or nothing), with entity
    /// numbers and values mapped as `planner` maps them.
    func sql(_ prefix: String, _ planner: MigrationPlanner) -> SQL {
        switch self {
        case .carried(let column, let transform):
            let value: SQL = "\(verbatim: prefix)\(name: column)"
            switch transform {
            case .none: return value
            case .renumbered: return planner.renumbering(value)
            case .defaulted(let literal): return "COALESCE(\(value), \(literal))"
            case .converted(let source, let destination, let literal):
                let converted = planner.dialect.converted(value, from: source, to: destination)
                return literal.map { "COALESCE(\(converted), \($0))" } ?? converted
            }
        case .literal(let literal):
            return literal
        case .perEntity(let sources):
            let cases = sources.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value.sql(prefix, planner))" as SQL }
            return "CASE \(verbatim: prefix)\(.Z_ENT) \(cases.joined(separator: " ")) END"
        case .empty:
            return "NULL"
        }
    }

    /// The source column carried as it is or transformed, if that is what this is.
    var carriedColumn: String? {
        if case .carried(let column, _) = self { column } else { nil }
    }
}
