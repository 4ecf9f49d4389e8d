/// The runtime's side of the stored properties of generated classes: each use is one walk of
/// `visitStoredAttributes(_:)`.
extension ManagedObject {
    /// Reads the current row of a fetch into the stored properties; `false` when one of them
    /// cannot hold its value.
    func readStoredAttributes(from row: StoreRow) -> Bool {
        var visitor = StoredAttributeVisitor(reading: row)
        visitStoredAttributes(&visitor)
        return !visitor.row!.hasMismatch
    }

    /// The value of the stored property of the attribute in `slot`.
    func storedAttributeValue(atSlot slot: Int) -> AttributeValue {
        var visitor = StoredAttributeVisitor(.value, target: slot)
        visitStoredAttributes(&visitor)
        return visitor.value
    }

    /// Stores `value` in the property of the attribute in `slot`: `false`, storing nothing, when the
    /// value is not of the property's type.
    func storeAttributeValue(_ value: AttributeValue, atSlot slot: Int) -> Bool {
        var visitor = StoredAttributeVisitor(.store, target: slot)
        visitor.value = value
        visitStoredAttributes(&visitor)
        return visitor.isStored
    }

    /// The values of every stored property, by slot, written straight into a buffer of their own.
    var storedAttributeValues: AttributeValues {
        var writer = AttributeValues.Writer(valuesPerBuffer: entity.attributes.count)
        return writer.row(count: entity.attributes.count, filling: collectStoredAttributeValues(into:))
    }

    /// Writes the value of every stored property into `values`, by slot.
    func collectStoredAttributeValues(into values: UnsafeMutableBufferPointer<AttributeValue>) {
        var visitor = StoredAttributeVisitor(.collect)
        visitor.values = values
        visitStoredAttributes(&visitor)
    }

    /// Stores `values` in the properties, by slot: `false` when one is not of its property's type
    /// (the others are stored).
    func storeAttributeValues(_ values: AttributeValues) -> Bool {
        values.withUnsafeBufferPointer { source in
            var visitor = StoredAttributeVisitor(.storeAll)
            // Only read during the walk.
            visitor.values = UnsafeMutableBufferPointer(mutating: source)
            visitStoredAttributes(&visitor)
            return visitor.isStored
        }
    }

    /// Releases what the stored properties hold, once the values are elsewhere or gone.
    func clearStoredAttributes() {
        var visitor = StoredAttributeVisitor(.clear)
        visitStoredAttributes(&visitor)
    }
}
