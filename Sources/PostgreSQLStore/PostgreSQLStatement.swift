import DataStore
import GRDB
import PostgresNIO
import StoreSchema

/// The runtime's statements as PostgreSQL reads them: rendered by `PostgreSQLDialect` — the
/// layout's names in double quotes, as the store's DDL spells them (`PostgreSQLName`), and
/// placeholders numbered `$1`, `$2`… — with each value bound so that the server reads it as the
/// column it meets.
enum PostgreSQLStatement {
    static func query(_ sql: SQL, arguments: [DatabaseValue]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { bind(argument, to: &bindings) }
        return PostgresQuery(unsafeSQL: PostgreSQLDialect().rendered(sql), binds: bindings)
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

/// The runtime's statements, not GRDB's literal of the same name.
typealias SQL = DataStore.SQL
