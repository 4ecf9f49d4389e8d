import DataStore
import Foundation
import GRDB
import PostgresNIO

/// A value read from PostgreSQL as the SQLite storage class the same value has in a SQLite store
/// of the layout, so that the runtime reads both alike.
enum PostgreSQLCells {
    static func value(of cell: PostgresCell) throws -> DatabaseValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8:
            return try cell.decode(Int64.self).databaseValue
        case .bool:
            return (try cell.decode(Bool.self) ? 1 : 0).databaseValue
        case .float4, .float8:
            return try cell.decode(Double.self).databaseValue
        case .numeric where cell.format == .binary:
            // As text, every digit, as a decimal column reads it; `NaN` too, which no `Decimal` holds.
            guard let text = cell.bytes.flatMap(numericText) else { throw PostgreSQLValueError.malformedNumeric }
            return text.databaseValue
        case .uuid:
            let uuid = try cell.decode(UUID.self)
            return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? []).databaseValue
        default:
            return try cell.decode(String.self).databaseValue
        }
    }

    /// A `numeric` in PostgreSQL's binary form as its text form: digit groups of base 10,000,
    /// the weight of the first, the sign (or NaN, ±Infinity), and the digits after the point.
    static func numericText(_ bytes: ByteBuffer) -> String? {
        var buffer = bytes
        guard let count = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
              let sign = buffer.readInteger(as: UInt16.self), let scale = buffer.readInteger(as: Int16.self), count >= 0, scale >= 0
        else { return nil }
        switch sign {
        case 0x0000, 0x4000: break
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: return nil
        }
        var groups: [Int] = []
        for _ in 0..<count {
            guard let group = buffer.readInteger(as: Int16.self), (0..<10_000).contains(group) else { return nil }
            groups.append(Int(group))
        }
        // Group `index` counts 10,000^(weight - index).
        func group(_ index: Int) -> Int { groups.indices.contains(index) ? groups[index] : 0 }
        func fourDigits(_ value: Int) -> String { String(String(value + 10_000).dropFirst()) }
        var integer = weight < 0 ? "0" : String(group(0))
        if weight > 0 { for index in 1...Int(weight) { integer += fourDigits(group(index)) } }
        var fraction = ""
        var index = Int(weight) + 1
        while fraction.count < scale {
            fraction += fourDigits(group(index))
            index += 1
        }
        let negative = sign == 0x4000 && groups.contains { $0 != 0 }
        return (negative ? "-" : "") + integer + (scale > 0 ? "." + fraction.prefix(Int(scale)) : "")
    }
}

extension ReadRows {
    /// The rows of `result`, each value in the SQLite storage class the same value has in a SQLite store.
    init(_ result: PostgresQueryResult) throws {
        var columnCount = 0
        var values: [DatabaseValue] = []
        for row in result.rows {
            columnCount = row.count
            for cell in row { values.append(try PostgreSQLCells.value(of: cell)) }
        }
        self.init(columnCount: columnCount, values: values)
    }
}
