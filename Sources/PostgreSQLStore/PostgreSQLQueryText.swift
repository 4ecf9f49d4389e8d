import GRDB
import PostgresNIO
import StoreSchema

/// The runtime's SQL as PostgreSQL reads it: the layout's names in double quotes, as the store's
/// DDL spells them (`PostgreSQLName`); `?` placeholders numbered `$1`, `$2`…; and each value
/// bound so that the server reads it as the column it meets.
struct PostgreSQLQueryText: Sendable {
    /// The tables and columns of the store's layout, as the runtime's SQL names them.
    let names: Set<String>

    /// `sql` with its names quoted and its placeholders numbered, and `arguments` bound.
    func query(_ sql: String, arguments: [DatabaseValue]) -> PostgresQuery {
        var text = ""
        text.reserveCapacity(sql.utf8.count + sql.utf8.count / 4)
        var placeholder = 0
        var word = ""
        func endWord() {
            guard !word.isEmpty else { return }
            text += names.contains(word) ? PostgreSQLName.quoted(word) : word
            word = ""
        }
        // The runtime binds every value; a migration's SQL, quoted already, has literals and names
        // in quotes, which stay as they are.
        var characters = sql.makeIterator()
        while let character = characters.next() {
            if character == "_" || character.isLetter || character.isNumber {
                word.append(character)
                continue
            }
            endWord()
            switch character {
            case "?":
                placeholder += 1
                text += "$\(placeholder)"
            case "'", "\"":
                text.append(character)
                while let next = characters.next() {
                    text.append(next)
                    if next == character { break }
                }
            default:
                text.append(character)
            }
        }
        endWord()
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { Self.bind(argument, to: &bindings) }
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// Binds `value` as the runtime compares it. Integers and text go as text of no stated type,
    /// which the server reads as the type of the column they are compared with — a `boolean`, a
    /// `numeric`, a `bigint` — as SQLite's affinity would; reals go as `double precision`, which
    /// compares with every numeric type; blobs as `bytea`.
    static func bind(_ value: DatabaseValue, to bindings: inout PostgresBindings) {
        switch value.storage {
        case .null: bindings.appendNull()
        case .int64(let integer): bindings.append(UntypedText(String(integer)))
        case .double(let real): bindings.append(real)
        case .string(let text): bindings.append(UntypedText(text))
        case .blob(let data): bindings.append(ByteBuffer(bytes: data))
        }
    }
}

/// A parameter in text form whose type the server infers from where it stands.
private struct UntypedText: PostgresDynamicTypeEncodable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// No type: PostgreSQL takes the type the parameter's place calls for.
    var psqlType: PostgresDataType { .null }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}
