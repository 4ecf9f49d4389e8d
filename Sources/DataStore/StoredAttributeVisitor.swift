/// A walk over the stored properties a generated class keeps its attribute values in, in slot
/// order (inherited ones first), doing one thing to them: reading a fetched row into them, reading
/// or writing the one of a slot, or all of them at once. A generated class lists its properties once:
///
///     override func visitStoredAttributes(_ visitor: inout StoredAttributeVisitor) {
///         super.visitStoredAttributes(&visitor)
///         visitor.visit(&_title)
///         visitor.visit(&_price)
///     }
///
/// One walk for every purpose keeps a class at one line per attribute; `visit` is inlined into
/// it, so reading a row costs what assigning each property from the row costs.
public struct StoredAttributeVisitor {
    @usableFromInline
    enum Operation {
        /// Reads the row into every property.
        case read
        /// Reads the property of `target` into `value`.
        case value
        /// Writes `value` into the property of `target`.
        case store
        /// Reads every property into `values`.
        case collect
        /// Writes `values` into every property.
        case storeAll
        /// Empties every property.
        case clear
    }

    @usableFromInline let operation: Operation
    /// The slot of the property `visit` is given next.
    @usableFromInline var slot = 0
    @usableFromInline let target: Int
    /// The value read (`value`) or to write (`store`).
    @usableFromInline var value = AttributeValue.null
    /// The values `collect` reads into and `storeAll` writes, by slot: valid during the walk.
    @usableFromInline var values = UnsafeMutableBufferPointer<AttributeValue>(start: nil, count: 0)
    /// Whether every value written went into a property of its type: when one did not, the object
    /// keeps its values in a buffer instead, which holds any value.
    @usableFromInline var isStored = true
    /// The row `read` reads.
    @usableFromInline var row: StoreRow?

    init(_ operation: Operation, target: Int = -1) {
        self.operation = operation
        self.target = target
    }

    /// A walk reading `row` into the properties.
    init(reading row: StoreRow) {
        self.init(.read)
        self.row = row
    }

    /// Visits the property of the next slot.
    @inlinable @inline(__always)
    public mutating func visit<Stored: StoredPropertyValue>(_ property: inout Stored?) {
        switch operation {
        case .read: property = Stored.read(slot, with: &self)
        case .value: if slot == target { value = property?.storedAttributeValue ?? .null }
        case .store: if slot == target { store(value, in: &property) }
        case .collect: if slot < values.count { values[slot] = property?.storedAttributeValue ?? .null }
        case .storeAll: if slot < values.count { store(values[slot], in: &property) }
        case .clear: property = nil
        }
        slot += 1
    }

    /// Visits the compact property of the next slot (`Int64`, `Double` and `Date` values).
    @inlinable @inline(__always)
    public mutating func visit<Stored: CompactlyStorable>(_ property: inout CompactOptional<Stored>) {
        switch operation {
        case .read:
            // A value with the pattern that stands for `nil` is a mismatch: the row goes to the buffer.
            if let compact = CompactOptional(fitting: Stored.read(slot, with: &self)) { property = compact } else { row!.noteMismatch() }
        case .value: if slot == target { value = property.value?.storedAttributeValue ?? .null }
        case .store: if slot == target { store(value, in: &property) }
        case .collect: if slot < values.count { values[slot] = property.value?.storedAttributeValue ?? .null }
        case .storeAll: if slot < values.count { store(values[slot], in: &property) }
        case .clear: property = nil
        }
        slot += 1
    }

    @inlinable @inline(__always)
    mutating func store<Stored: CompactlyStorable>(_ value: AttributeValue, in property: inout CompactOptional<Stored>) {
        if let stored = Stored?(fitting: value), let compact = CompactOptional(fitting: stored) { property = compact } else { isStored = false }
    }

    @inlinable @inline(__always)
    mutating func store<Stored: StoredPropertyValue>(_ value: AttributeValue, in property: inout Stored?) {
        if let stored = Stored?(fitting: value) { property = stored } else { isStored = false }
    }
}
