import Foundation
import StoreSchema

/// What a copy creates at the destination and fills: the model's layout as the source has it, its
/// persistent history if it has one, and any other table it holds, carried as it is.
struct CopyPlan: Sendable {
    /// The model's tables, with the source's Core Data release and join table names.
    var schema: StoreSchema
    /// The tombstone columns of the source's persistent history; `nil` when it has none.
    var historyTombstoneColumns: Int?
    /// Every table to fill, in order: the layout's, the history's, then those outside the layout.
    var tables: [CopiedTable]

    /// The tables outside the model's layout (Core Data's CloudKit mirroring metadata, `ANSCK…`).
    var tablesOutsideLayout: [CopiedTable] { tables.filter { $0.sqliteDefinition != nil } }
}

/// How a table outside the model's layout keeps its SQLite definition in PostgreSQL: as the
/// table's comment, `{"sqlite": [statements]}`, so that a copy back creates it as it was.
enum SQLiteDefinitionComment {
    private struct Comment: Codable {
        var sqlite: [String]
    }

    static func comment(for statements: [String]) -> String {
        // Encoding an array of strings cannot fail.
        String(decoding: try! JSONEncoder().encode(Comment(sqlite: statements)), as: UTF8.self)
    }

    /// The statements of a comment `comment(for:)` wrote; `nil` for any other comment.
    static func statements(in comment: String) -> [String]? {
        try? JSONDecoder().decode(Comment.self, from: Data(comment.utf8)).sqlite
    }
}
