import Foundation
import DataModel
import GRDB
import GRDBSQLite

/// The row a fetch is reading, as a generated class reads it into its stored properties in
/// `ManagedObject.readAttributes(from:)`: one typed read per attribute slot.
///
///     override func readAttributes(from row: inout StoreRow) {
///         super.readAttributes(from: &row)
///         _title = row.string(1)
///     }
///
/// A read returns the slot's value, `nil` for a missing one. A value of another type (from a store
/// written by other means, or for a class of another model version) reads as `nil` and marks the
/// row: the object then keeps its values in a value buffer, which holds any value, so none is lost.
public struct StoreRow: ~Copyable {
    private let statement: SQLiteStatement
    /// The layout's slots; valid while the layout reads the row.
    private let reads: UnsafeBufferPointer<RowLayout.AttributeRead>
    /// Not retained: the entity keeps its layout alive while its rows are read.
    private unowned(unsafe) let layout: RowLayout
    /// Whether a read found a value of another type than its own.
    private(set) var hasMismatch = false

    init(statement: SQLiteStatement, reads: UnsafeBufferPointer<RowLayout.AttributeRead>, layout: RowLayout) {
        self.statement = statement
        self.reads = reads
        self.layout = layout
    }

    // The common types read their usual storage class straight from SQLite, as
    // `AttributeValue(column:of:as:)` does; anything else goes through its conversions.

    public mutating func integer(_ slot: Int) -> Int64? {
        if let value = plainColumn(slot, where: \.isInteger) {
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: return nil
            case SQLITE_INTEGER: return sqlite3_value_int64(value)
            default: break
            }
        }
        return read(slot) { $0.store(in: &$1) }
    }

    public mutating func double(_ slot: Int) -> Double? {
        if let value = plainColumn(slot, where: { $0 == .double || $0 == .float }) {
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: return nil
            case SQLITE_FLOAT: return sqlite3_value_double(value)
            default: break
            }
        }
        return read(slot) { $0.store(in: &$1) }
    }

    public mutating func bool(_ slot: Int) -> Bool? {
        if let value = plainColumn(slot, where: { $0 == .boolean }) {
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: return nil
            case SQLITE_INTEGER: return sqlite3_value_int64(value) != 0
            default: break
            }
        }
        return read(slot) { $0.store(in: &$1) }
    }

    public mutating func string(_ slot: Int) -> String? {
        if let value = plainColumn(slot, where: { $0 == .string }) {
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: return nil
            case SQLITE_TEXT: return AttributeValue.text(of: value)
            default: break
            }
        }
        return read(slot) { $0.store(in: &$1) }
    }

    public mutating func date(_ slot: Int) -> Date? {
        if let value = plainColumn(slot, where: { $0 == .date }) {
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: return nil
            case SQLITE_FLOAT, SQLITE_INTEGER: return Date(timeIntervalSinceReferenceDate: sqlite3_value_double(value))
            default: break
            }
        }
        return read(slot) { $0.store(in: &$1) }
    }

    public mutating func decimal(_ slot: Int) -> Decimal? { read(slot) { $0.store(in: &$1) } }
    public mutating func data(_ slot: Int) -> Data? { read(slot) { $0.store(in: &$1) } }
    public mutating func uuid(_ slot: Int) -> UUID? { read(slot) { $0.store(in: &$1) } }
    public mutating func url(_ slot: Int) -> URL? { read(slot) { $0.store(in: &$1) } }

    /// The value of any type: for attributes without a payload type of their own (composites).
    public func value(_ slot: Int) -> AttributeValue {
        layout.value(atSlot: slot, of: statement)
    }

    /// The SQLite value of the slot's column when it is a plain column of a type `accepts`.
    @inline(__always)
    private func plainColumn(_ slot: Int, where accepts: (AttributeType) -> Bool) -> OpaquePointer? {
        guard slot < reads.count, let column = reads[slot].column, accepts(reads[slot].type) else { return nil }
        return sqlite3_column_value(statement, column)
    }

    private mutating func read<Property>(_ slot: Int, _ store: (AttributeValue, inout Property?) -> Bool) -> Property? {
        var property: Property?
        if !store(value(slot), &property) { hasMismatch = true }
        return property
    }
}
