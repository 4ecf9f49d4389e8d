/// Why a copy stopped. Nothing is written to the destination when it does.
public enum StoreCopyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source has no `Z_METADATA` row: it is not a Core Data store.
    case notAStore(String)
    /// The source was written by another version of the model.
    case modelMismatch(String)
    /// The destination already holds tables of a store.
    case destinationNotEmpty(String)
    /// The source has a table, holding rows, that the model's layout does not have and no SQLite
    /// definition describes (a PostgreSQL table of other origin).
    case unknownTable(String, rows: Int)
    /// A table of the source lacks columns of the model's layout, or has columns it does not.
    case layoutMismatch(table: String, missing: [String], unknown: [String])
    /// A value the destination's column cannot hold as it is (`row` is the object's `Z_PK`, when
    /// the table has one).
    case valueDoesNotFit(table: String, column: String, row: Int64?, value: String, type: String)

    public var description: String {
        switch self {
        case .notAStore(let store):
            "\(store) is not a Core Data store: it has no Z_METADATA row"
        case .modelMismatch(let store):
            "\(store) was written by another version of the model (its version hashes differ); pass the version that wrote it with --model-version"
        case .destinationNotEmpty(let store):
            "\(store) already holds a store; copy-store writes only into an empty file or database"
        case .unknownTable(let table, let rows):
            "the source's table \(table) holds \(rows == 1 ? "1 row" : "\(rows) rows") and is not part of the model's layout; copying would lose them"
        case .layoutMismatch(let table, let missing, let unknown):
            "the source's table \(table) does not have the model's layout"
                + (missing.isEmpty ? "" : "; missing columns: \(missing.joined(separator: ", "))")
                + (unknown.isEmpty ? "" : "; columns the model does not have: \(unknown.joined(separator: ", "))")
        case .valueDoesNotFit(let table, let column, let row, let value, let type):
            "\(table).\(column)\(row.map { " of the row with Z_PK \($0)" } ?? ""): the value \(value) cannot be stored as \(type) without change"
        }
    }
}
