/// The values an object's attributes had when last read from or written to the store, kept only
/// for the attributes changed since: every other attribute's saved value is its current one.
///
/// A change keeps the one value it replaces, not a copy of the row, and a save compares only the
/// attributes that changed: changing one attribute of a wide object costs what a narrow one does.
struct SavedAttributeValues {
    /// A changed attribute's slot and its saved value.
    private struct Entry {
        let slot: Int
        var value: AttributeValue
    }

    /// In slot order; most objects change a few attributes, so a search is a short walk.
    private var entries: [Entry] = []

    /// The saved `value` of `slot`, the first attribute changed.
    init(_ value: AttributeValue, forSlot slot: Int) {
        entries = [Entry(slot: slot, value: value)]
    }

    /// The saved value of `slot`, when a change kept it: `nil` when the saved value is the current one.
    subscript(slot: Int) -> AttributeValue? {
        entries.first { $0.slot == slot }?.value
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Keeps `value` as the saved value of `slot`, unless one is kept already: the first change of
    /// an attribute keeps the value it replaces, and later changes leave it.
    mutating func keep(_ value: AttributeValue, forSlot slot: Int) {
        // Past every slot kept: appended, moving nothing.
        guard let index = entries.firstIndex(where: { $0.slot >= slot }) else {
            return entries.append(Entry(slot: slot, value: value))
        }
        if entries[index].slot != slot { entries.insert(Entry(slot: slot, value: value), at: index) }
    }

    /// Makes `value` the saved value of `slot` where one is kept; elsewhere the saved value is the
    /// current one, which the caller sets.
    mutating func replace(_ value: AttributeValue, forSlot slot: Int) {
        guard let index = entries.firstIndex(where: { $0.slot == slot }) else { return }
        entries[index].value = value
    }

    /// The kept slots whose current values, as `current` reads them, differ from the saved ones:
    /// a value changed and changed back is no change.
    func changedSlots(current: (Int) -> AttributeValue) -> [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(entries.count)
        for entry in entries where current(entry.slot) != entry.value { slots.append(entry.slot) }
        return slots
    }

    /// The whole row of saved values: `current` with the kept values in their slots.
    func applied(to current: AttributeValues) -> AttributeValues {
        guard !entries.isEmpty else { return current }
        var saved = current
        for entry in entries where entry.slot < saved.count { saved[entry.slot] = entry.value }
        return saved
    }

    /// The values that `saved` holds where they differ from `current`: what an object keeps when
    /// its values changed after a save read them.
    init(saved: AttributeValues, current: (Int) -> AttributeValue) {
        for slot in saved.indices where current(slot) != saved[slot] {
            entries.append(Entry(slot: slot, value: saved[slot]))
        }
    }
}
