/// Direct access to the stored properties of generated classes: a getter or setter that reads or
/// writes its property itself, without going through `AttributeValue`, when the object keeps its
/// values there — and through typed access (`self[key]`) otherwise, which handles every case.
///
///     public var title: String? {
///         get { valuesAreInProperties ? _title : self[Book.title] }
///         set {
///             guard canSetPropertyValue(atSlot: 1) else { self[Book.title] = newValue; return }
///             if _title != newValue {
///                 willSetPropertyValue()
///                 _title = newValue
///                 didSetPropertyValue()
///             }
///         }
///     }
extension ManagedObject {
    /// Whether the attribute values are in the class's stored properties, once a fault has loaded
    /// its row (which this does first): a generated getter then returns its property.
    public var valuesAreInProperties: Bool {
        fulfillIfNeeded()
        return valueStorage == .properties
    }

    /// Whether a generated setter may write the property of the attribute in `slot` itself, after
    /// loading a fault's row: the values are in stored properties, the store does not compute
    /// the attribute (a derived one, whose misuse `self[key] = value` reports) and no undo manager
    /// records the change (which `self[key] = value` does).
    public func canSetPropertyValue(atSlot slot: Int) -> Bool {
        fulfillIfNeeded()
        return valueStorage == .properties && !entity.attributes[slot].isDerived && context?.undoManager == nil
    }

    /// Keeps the saved values apart before a generated setter changes its property, as the first
    /// change of any value does.
    public func willSetPropertyValue() {
        keepSavedAttributeValuesApart()
    }

    /// Records that a generated setter changed its property.
    public func didSetPropertyValue() {
        context?.didChange(self)
    }
}
