import Foundation
import DataModel
import GRDB
import GRDBSQLite

/// The row a fetch is reading, as `StoredAttributeVisitor` reads it into a generated class's stored
/// properties: one typed read per attribute slot.
///
/// A read returns the slot's value, `nil` for a missing one. A value of another type (from a store
/// written by other means, or for a class of another model version) reads as `nil` and marks the
/// row: the object then keeps its values in a value buffer, which holds any value, so none is lost.
@usableFromInline
struct StoreRow {
    private let columns: RowColumns
    /// The layout's slots; valid while the layout reads the row.
    private let reads: UnsafeBufferPointer<RowLayout.AttributeRead>
    /// Not retained: the entity keeps its layout alive while its rows are read.
    private unowned(unsafe) let layout: RowLayout
    /// Whether a read found a value of another type than its own, or one its property cannot hold.
    private(set) var hasMismatch = false

    init(columns: RowColumns, reads: UnsafeBufferPointer<RowLayout.AttributeRead>, layout: RowLayout) {
        self.columns = columns
        self.reads = reads
        self.layout = layout
    }

    /// Marks the row: a value read cannot be held by its property (see `CompactOptional`).
    @usableFromInline mutating func noteMismatch() {
        hasMismatch = true
    }

    // The common types read their usual storage class straight from SQLite, as
    // `AttributeValue(column:of:as:)` does; anything else goes through its conversions.

    @usableFromInline mutating func integer(_ slot: Int) -> Int64? {
        read(slot, ofType: \.isInteger, storedAs: { $0 == SQLITE_INTEGER }, sqlite3_value_int64)
    }

    @usableFromInline mutating func double(_ slot: Int) -> Double? {
        read(slot, ofType: { $0 == .double || $0 == .float }, storedAs: { $0 == SQLITE_FLOAT }, sqlite3_value_double)
    }

    @usableFromInline mutating func bool(_ slot: Int) -> Bool? {
        read(slot, ofType: { $0 == .boolean }, storedAs: { $0 == SQLITE_INTEGER }, { sqlite3_value_int64($0) != 0 })
    }

    @usableFromInline mutating func string(_ slot: Int) -> String? {
        read(slot, ofType: { $0 == .string }, storedAs: { $0 == SQLITE_TEXT }, AttributeValue.text(of:))
    }

    @usableFromInline mutating func date(_ slot: Int) -> Date? {
        // A date column's affinity is NUMERIC: whole seconds are stored as integers.
        read(slot, ofType: { $0 == .date }, storedAs: { $0 == SQLITE_FLOAT || $0 == SQLITE_INTEGER }, {
            Date(timeIntervalSinceReferenceDate: sqlite3_value_double($0))
        })
    }

    @usableFromInline mutating func decimal(_ slot: Int) -> Decimal? { read(slot) }
    @usableFromInline mutating func data(_ slot: Int) -> Data? { read(slot) }
    @usableFromInline mutating func uuid(_ slot: Int) -> UUID? { read(slot) }
    @usableFromInline mutating func url(_ slot: Int) -> URL? { read(slot) }

    /// The value of any type: for attributes without a payload type of their own (composites).
    @usableFromInline func value(_ slot: Int) -> AttributeValue {
        layout.value(atSlot: slot, of: columns)
    }

    /// The slot's value read with `payload` when the row is a statement's, the slot is a plain column
    /// of a type `accepts` and the value is `NULL` or of a storage class `isStored` accepts; otherwise
    /// through `AttributeValue`'s conversions.
    @inline(__always)
    private mutating func read<Property: StoredPropertyValue>(
        _ slot: Int, ofType accepts: (AttributeType) -> Bool, storedAs isStored: (Int32) -> Bool,
        _ payload: (OpaquePointer?) -> Property
    ) -> Property? {
        if case .statement(let statement) = columns, slot < reads.count, let column = reads[slot].column, accepts(reads[slot].type) {
            let value = sqlite3_column_value(statement, column)
            let storageClass = sqlite3_value_type(value)
            if storageClass == SQLITE_NULL { return nil }
            if isStored(storageClass) { return payload(value) }
        }
        return read(slot)
    }

    private mutating func read<Property: StoredPropertyValue>(_ slot: Int) -> Property? {
        guard let property = Property?(fitting: value(slot)) else {
            hasMismatch = true
            return nil
        }
        return property
    }
}
