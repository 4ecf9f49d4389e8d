/// The relationship values a fetch made last, by the destination of their one to-one, so that rows
/// leading to the same object share one array: the employees of a department, the messages of a
/// conversation. Arrays are values, so a shared one is copied on its first change.
///
/// Each row with a to-one otherwise makes an array of its own, an allocation and a copy that cost
/// more than reading the row's attributes; sharing also takes that array out of each object's
/// memory. A table of 256 entries (a power of two, about 10 KB), each destination in the entry its
/// key picks: rows leading to up to a few hundred objects share one array per object, and rows
/// leading each to its own pay one comparison more.
struct SharedRelationshipValues {
    private struct Entry {
        /// The layout that made the values: a fetch of an entity with subentities reads several.
        let layout: ObjectIdentifier
        let key: Int64
        let entityNumber: Int
        let values: [RelationshipValue]
    }

    /// The number of entries: 256, or none to share nothing.
    private let capacity: Int
    /// Made on the second row with a to-one: a fetch of one row keeps its one entry in `first`.
    private var entries: [Entry?] = []
    private var first: Entry?

    /// A table for the rows of a fetch.
    init() {
        capacity = 256
    }

    /// No table: each row makes its own values, as one row loaded alone does.
    static var unshared: SharedRelationshipValues { SharedRelationshipValues(capacity: 0) }

    private init(capacity: Int) {
        self.capacity = capacity
    }

    /// The values for a row of `layout` whose one to-one leads to row `key` of entity
    /// `entityNumber`: those made for an earlier such row, or `make()`'s.
    mutating func values(
        of layout: RowLayout, key: Int64, entityNumber: Int, _ make: () -> [RelationshipValue]
    ) -> [RelationshipValue] {
        guard capacity > 0 else { return make() }
        let layoutID = ObjectIdentifier(layout)
        if entries.isEmpty {
            guard let first else {
                let values = make()
                first = Entry(layout: layoutID, key: key, entityNumber: entityNumber, values: values)
                return values
            }
            entries = Array(repeating: nil, count: capacity)
            entries[index(key: first.key, entityNumber: first.entityNumber)] = first
            self.first = nil
        }
        let index = index(key: key, entityNumber: entityNumber)
        if let entry = entries[index], entry.key == key, entry.entityNumber == entityNumber, entry.layout == layoutID {
            return entry.values
        }
        let values = make()
        entries[index] = Entry(layout: layoutID, key: key, entityNumber: entityNumber, values: values)
        return values
    }

    /// The entry a destination goes in: its key's low bits, which spread the dense keys of a table.
    private func index(key: Int64, entityNumber: Int) -> Int {
        Int(truncatingIfNeeded: key &+ Int64(truncatingIfNeeded: entityNumber) &* 31) & (capacity - 1)
    }
}
