import Foundation
import GRDB

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
    /// Not retained: the entity keeps its layout alive while its rows are read.
    private unowned(unsafe) let layout: RowLayout
    /// Whether a read found a value of another type than its own.
    private(set) var hasMismatch = false

    init(statement: SQLiteStatement, layout: RowLayout) {
        self.statement = statement
        self.layout = layout
    }

    public mutating func integer(_ slot: Int) -> Int64? { read(slot) { $0.store(in: &$1) } }
    public mutating func double(_ slot: Int) -> Double? { read(slot) { $0.store(in: &$1) } }
    public mutating func decimal(_ slot: Int) -> Decimal? { read(slot) { $0.store(in: &$1) } }
    public mutating func bool(_ slot: Int) -> Bool? { read(slot) { $0.store(in: &$1) } }
    public mutating func string(_ slot: Int) -> String? { read(slot) { $0.store(in: &$1) } }
    public mutating func date(_ slot: Int) -> Date? { read(slot) { $0.store(in: &$1) } }
    public mutating func data(_ slot: Int) -> Data? { read(slot) { $0.store(in: &$1) } }
    public mutating func uuid(_ slot: Int) -> UUID? { read(slot) { $0.store(in: &$1) } }
    public mutating func url(_ slot: Int) -> URL? { read(slot) { $0.store(in: &$1) } }

    /// The value of any type: for attributes without a typed property (composites, for one).
    public func value(_ slot: Int) -> AttributeValue {
        layout.value(atSlot: slot, of: statement)
    }

    private mutating func read<Property>(_ slot: Int, _ store: (AttributeValue, inout Property?) -> Bool) -> Property? {
        var property: Property?
        if !store(layout.value(atSlot: slot, of: statement), &property) { hasMismatch = true }
        return property
    }
}
