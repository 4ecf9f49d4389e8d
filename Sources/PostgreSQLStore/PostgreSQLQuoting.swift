import PostgreSQLSchema
import StoreSchema

/// SQL written with SQLite's bare names (`SELECT Z_PK FROM ZBOOK`), as PostgreSQL must read it:
/// the store's names in double quotes, since PostgreSQL folds bare names to lower case, and cut to
/// its length as `PostgreSQLName` cuts them. The runtime writes one query for both engines, and a
/// migration's SQL names tables of two model versions and tables of its own: both are quoted here.
package struct PostgreSQLQuoting: Sendable {
    /// The bare words that are names of the store: tables, columns, indexes.
    let names: Set<String>

    package init(names: Set<String>) {
        self.names = names
    }

    /// Words starting so are the migration's own temporary tables and indexes.
    static let temporaryPrefix = "Z_MIGRATION_"

    /// The bookkeeping tables' names and the persistent history's.
    static let bookkeeping: PostgreSQLQuoting = {
        var names: Set<String> = ["Z_PRIMARYKEY", "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX", "Z_METADATA", "Z_VERSION", "Z_UUID", "Z_PLIST", "Z_MODELCACHE",
                                  "Z_CONTENT", "Z_PK", "Z_OPT"]
        for table in HistorySchema.postgreSQLTables(tombstoneColumns: 0) {
            names.insert(table.name)
            names.formUnion(table.columns.map(\.name))
        }
        return PostgreSQLQuoting(names: names)
    }()

    /// These names and `more`.
    func adding<S: Sequence<String>>(_ more: S) -> PostgreSQLQuoting {
        PostgreSQLQuoting(names: names.union(more))
    }

    /// `sql` with every name in double quotes, and with `numberingPlaceholders` its `?`
    /// placeholders numbered `$1`, `$2`…; string literals stay as they are, and names in double
    /// quotes already are cut to PostgreSQL's length.
    package func quoted(_ sql: String, numberingPlaceholders: Bool = false) -> String {
        var text = ""
        text.reserveCapacity(sql.utf8.count + sql.utf8.count / 4)
        var characters = sql.makeIterator()
        var word = ""
        var placeholder = 0
        func endWord() {
            guard !word.isEmpty else { return }
            text += names.contains(word) || word.hasPrefix(Self.temporaryPrefix) || Self.isTombstone(word) ? PostgreSQLName.quoted(word) : word
            word = ""
        }
        while let character = characters.next() {
            if character == "_" || character.isLetter || character.isNumber {
                word.append(character)
                continue
            }
            endWord()
            switch character {
            case "?" where numberingPlaceholders:
                placeholder += 1
                text += "$\(placeholder)"
            case "'":
                // A literal, its quotes doubled inside: copied as it is.
                text.append(character)
                while let next = characters.next() {
                    text.append(next)
                    if next == "'" { break }
                }
            case "\"":
                var name = ""
                while let next = characters.next(), next != "\"" { name.append(next) }
                text += PostgreSQLName.quoted(name)
            default:
                text.append(character)
            }
        }
        endWord()
        return text
    }

    /// `ZTOMBSTONE0`, `ZTOMBSTONE1`…: the history's tombstone columns, as many as a store has.
    private static func isTombstone(_ word: String) -> Bool {
        word.hasPrefix("ZTOMBSTONE") && word.dropFirst(10).allSatisfy(\.isNumber) && word.count > 10
    }
}
