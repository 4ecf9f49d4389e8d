import DataStore
import GRDB
import PostgresNIO
import StoreSchema

/// The runtime's SQL as PostgreSQL reads it: the layout's names in double quotes, as the store's
/// DDL spells them (`PostgreSQLName`); `?` placeholders numbered `$1`, `$2`…; and each value
/// bound so that the server reads it as the column it meets.
struct PostgreSQLQueryText: Sendable {
    /// The tables and columns of the store's layout, as the runtime's SQL names them.
    private let quoting: PostgreSQLQuoting

    init(names: Set<String>) {
        quoting = PostgreSQLQuoting(names: names)
    }

    /// `sql` with its names quoted and its placeholders numbered, and `arguments` bound.
    func query(_ sql: String, arguments: [DatabaseValue]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { Self.bind(argument, to: &bindings) }
        return PostgresQuery(unsafeSQL: quoting.quoted(sql, numberingPlaceholders: true), binds: bindings)
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
