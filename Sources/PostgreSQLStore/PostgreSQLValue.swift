import Foundation
import GRDB
import PostgresNIO

/// Values between SQLite's storage classes and PostgreSQL's types, both ways, without loss: a value
/// a column's PostgreSQL type cannot hold as it is is refused, never rounded or reinterpreted.
enum PostgreSQLValue {
    /// Appends `value`, read from SQLite, to `bindings` as a value of `type`; false, appending
    /// nothing, when the type cannot hold it.
    static func bind(_ value: DatabaseValue, as type: PostgreSQLValueType, to bindings: inout PostgresBindings) -> Bool {
        switch (value.storage, type) {
        case (.null, _):
            bindings.appendNull()
        case (.int64(let integer), .smallint) where Int16(exactly: integer) != nil,
            (.int64(let integer), .integer) where Int32(exactly: integer) != nil,
            (.int64(let integer), .bigint):
            bindings.append(integer)
        case (.int64(let integer), .boolean) where integer == 0 || integer == 1:
            bindings.append(integer == 1)
        case (.int64(let integer), .double) where Int64(exactly: Double(integer)) == integer:
            bindings.append(Double(integer))
        case (.double(let real), .double):
            bindings.append(real)
        // Decimals go as text, which `numeric` reads exactly: the shortest digits that give the double back.
        case (.int64(let integer), .numeric):
            bindings.append(String(integer))
        case (.double(let real), .numeric) where real.isFinite:
            bindings.append(String(real))
        case (.string(let text), .numeric) where Decimal(string: text) != nil || text == "NaN":
            // Core Data writes an `NSDecimalNumber.notANumber` as the text NaN, which `numeric` holds.
            bindings.append(text)
        case (.string(let text), .text) where !text.utf8.contains(0):
            // SQLite's text may hold U+0000; PostgreSQL's cannot.
            bindings.append(text)
        case (.blob(let data), .uuid) where data.count == 16:
            bindings.append(UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case (.blob(let data), .bytea):
            bindings.append(ByteBuffer(bytes: data))
        case (.string(let text), .bytea):
            // Core Data leaves text in some binary attributes' columns (CloudKit imports do). A
            // binary attribute reads a text value as its UTF-8 bytes, in SQLite as here; it comes
            // back as a blob of those bytes, which reads the same.
            bindings.append(ByteBuffer(string: text))
        case (_, .anyValue):
            bindings.append(tagged(value))
        default:
            return false
        }
        return true
    }

    /// The SQLite value of `cell`, a value of a column of `type`.
    static func value(_ cell: PostgresCell, of type: PostgreSQLValueType) throws -> DatabaseValue {
        guard type == .anyValue, cell.bytes != nil else { return try PostgreSQLCells.value(of: cell) }
        return try untagged(cell.decode(ByteBuffer.self))
    }

    /// How an `anyValue` begins, by the value's SQLite storage class; the rest is the value: a
    /// big-endian 64-bit integer or IEEE double, UTF-8 text, or the blob's bytes.
    private enum StorageClassTag: UInt8 {
        case integer = 1, real = 2, text = 3, blob = 4
    }

    /// A non-null value as `bytea` that keeps its storage class.
    private static func tagged(_ value: DatabaseValue) -> ByteBuffer {
        var buffer = ByteBuffer()
        switch value.storage {
        case .null:
            preconditionFailure("NULL is bound as NULL")
        case .int64(let integer):
            buffer.writeInteger(StorageClassTag.integer.rawValue)
            buffer.writeInteger(integer)
        case .double(let real):
            buffer.writeInteger(StorageClassTag.real.rawValue)
            buffer.writeInteger(real.bitPattern)
        case .string(let text):
            buffer.writeInteger(StorageClassTag.text.rawValue)
            buffer.writeString(text)
        case .blob(let data):
            buffer.writeInteger(StorageClassTag.blob.rawValue)
            buffer.writeBytes(data)
        }
        return buffer
    }

    /// The value `tagged(_:)` wrote.
    static func untagged(_ bytes: ByteBuffer) throws -> DatabaseValue {
        var buffer = bytes
        guard let tag = buffer.readInteger(as: UInt8.self).flatMap(StorageClassTag.init(rawValue:)) else {
            throw PostgreSQLValueError.malformedTaggedValue
        }
        switch tag {
        case .integer:
            guard let integer = buffer.readInteger(as: Int64.self), buffer.readableBytes == 0 else { throw PostgreSQLValueError.malformedTaggedValue }
            return integer.databaseValue
        case .real:
            guard let bits = buffer.readInteger(as: UInt64.self), buffer.readableBytes == 0 else { throw PostgreSQLValueError.malformedTaggedValue }
            return Double(bitPattern: bits).databaseValue
        case .text:
            guard let text = buffer.readString(length: buffer.readableBytes) else { throw PostgreSQLValueError.malformedTaggedValue }
            return text.databaseValue
        case .blob:
            return Data(buffer.readableBytesView).databaseValue
        }
    }
}

/// A value the database holds in a form no store of this layout writes.
enum PostgreSQLValueError: Error, CustomStringConvertible {
    /// A `bytea` that should hold a value tagged with its storage class (a history tombstone's, or
    /// one of a table outside the model's layout) does not begin with a tag or does not hold its value.
    case malformedTaggedValue
    /// A `numeric` value whose binary form is not PostgreSQL's.
    case malformedNumeric

    var description: String {
        switch self {
        case .malformedTaggedValue:
            "a value of a history tombstone or of a table outside the model's layout does not begin with its storage class"
        case .malformedNumeric: "a numeric value is not in PostgreSQL's binary form"
        }
    }
}
