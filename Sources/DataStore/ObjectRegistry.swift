/// A context's objects by ID, not retained: an unchanged object nobody uses goes away, and its
/// `deinit` removes its entry. Unretained rather than `weak` because a weak reference moves every
/// retain and release of the object onto a slow path.
///
/// Keys are dense — `Z_PK`s count up per table, temporary keys per context — so objects live in
/// pages of consecutive keys: a fetch of many rows looks up one small, cache-resident page table
/// and then indexes an array, where a hash table of every ID would miss the cache on each row.
struct ObjectRegistry {
    private static let pageShift = 8
    private static let pageSize = 1 << pageShift

    /// The page of each run of `pageSize` keys, by the run's row (the key divided by `pageSize`).
    private var pages: [ObjectID.Row: Int] = [:]
    /// Every page's slots, one page after another.
    private var slots: [Unmanaged<ManagedObject>?] = []
    /// The number of objects on each page; a page that empties is reused.
    private var counts: [Int] = []
    private var freePages: [Int] = []
    /// The page used last: consecutive rows fall on it without a page-table lookup.
    private var lastPage = ObjectID.Row(entityNumber: 0, key: .permanent(0))
    private var lastIndex: Int?
    /// The page an object was last removed from, apart: a save moves each new object from its
    /// temporary key's page to its permanent key's, and objects go in runs as they came.
    private var lastRemovedPage = ObjectID.Row(entityNumber: 0, key: .permanent(0))
    private var lastRemovedIndex: Int?

    /// The object registered for `row`.
    subscript(row: ObjectID.Row) -> ManagedObject? {
        let (page, offset) = Self.split(row)
        guard let index = index(of: page) else { return nil }
        return slots[index << Self.pageShift | offset]?.takeUnretainedValue()
    }

    /// Registers `object` for `row`, replacing the object registered for it before.
    mutating func insert(_ object: ManagedObject, for row: ObjectID.Row) {
        insert(object, at: slot(for: row))
    }

    /// Where the object for `row` is registered or would be: one lookup for a fetched row, which
    /// is then read (`subscript(slot:)`) and, when nothing is there, filled (`insert(_:at:)`).
    /// Makes room for the row's page; fill the slot before asking for another.
    mutating func slot(for row: ObjectID.Row) -> Int {
        let (page, offset) = Self.split(row)
        let index = index(of: page) ?? addPage(page)
        lastPage = page
        lastIndex = index
        return index << Self.pageShift | offset
    }

    /// The object in `slot`.
    subscript(slot slot: Int) -> ManagedObject? {
        slots[slot]?.takeUnretainedValue()
    }

    /// Registers `object` in `slot`, replacing the object registered there before.
    mutating func insert(_ object: ManagedObject, at slot: Int) {
        if slots[slot] == nil { counts[slot >> Self.pageShift] += 1 }
        slots[slot] = Unmanaged.passUnretained(object)
    }

    /// Forgets the object registered for `row`; when `only` is given, only if that is the object
    /// (compared by address, so an object in its `deinit` can ask).
    mutating func remove(_ row: ObjectID.Row, only object: UnsafeMutableRawPointer? = nil) {
        let (page, offset) = Self.split(row)
        let index: Int
        if let removedIndex = lastRemovedIndex, page == lastRemovedPage {
            index = removedIndex
        } else {
            guard let found = self.index(of: page) else { return }
            index = found
            lastRemovedPage = page
            lastRemovedIndex = found
        }
        let slot = index << Self.pageShift | offset
        guard let entry = slots[slot], object == nil || entry.toOpaque() == object else { return }
        slots[slot] = nil
        counts[index] -= 1
        if counts[index] == 0 {
            pages[page] = nil
            freePages.append(index)
            if lastIndex == index { lastIndex = nil }
            if lastRemovedIndex == index { lastRemovedIndex = nil }
        }
    }

    /// Calls `body` with each registered object, in no particular order.
    func forEach(_ body: (ManagedObject) -> Void) {
        for case let entry? in slots { entry._withUnsafeGuaranteedRef(body) }
    }

    /// Every registered object, in no particular order.
    var objects: [ManagedObject] {
        slots.compactMap { $0?.takeUnretainedValue() }
    }

    mutating func removeAll() {
        self = ObjectRegistry()
    }

    private func index(of page: ObjectID.Row) -> Int? {
        if let lastIndex, page == lastPage { return lastIndex }
        return pages[page]
    }

    private mutating func addPage(_ page: ObjectID.Row) -> Int {
        let index: Int
        if let free = freePages.popLast() {
            index = free
        } else {
            index = counts.count
            counts.append(0)
            slots.append(contentsOf: repeatElement(nil, count: Self.pageSize))
        }
        pages[page] = index
        return index
    }

    /// The row standing for `row`'s page, and `row`'s offset in it.
    private static func split(_ row: ObjectID.Row) -> (page: ObjectID.Row, offset: Int) {
        switch row.key {
        case .permanent(let key):
            (ObjectID.Row(entityNumber: row.entityNumber, key: .permanent(key >> pageShift)), Int(key & Int64(pageSize - 1)))
        case .temporary(let key):
            (ObjectID.Row(entityNumber: row.entityNumber, key: .temporary(key >> pageShift)), Int(key & UInt64(pageSize - 1)))
        }
    }
}
