import DataModel
import PropertyLists

/// An archived `NSFetchRequest`, as a compiled model keeps a fetched property's request and each
/// fetch request template: what a model can declare of it. What it cannot (an offset, properties
/// to fetch or group by, prefetching) is a `ModelCacheError`, never dropped.
struct ArchivedFetch {
    /// `NSFetchRequestFlags` when a request keeps none: subentities, property values, faults and
    /// pending changes included (bits 2, 4, 8 and 16); bit 1 is distinct results.
    static let defaultFlags = 30

    var entityName: String
    var predicate: String?
    var sortDescriptors: [FetchSortDescriptor] = []
    var resultType: Int
    var fetchLimit: Int
    var fetchBatchSize: Int
    var flags: Int

    /// `object`'s request; `entityName` names its entity when the archive keeps only a
    /// conditional reference to it (a fetched property's `_NSFetchRequestEntityName`).
    init(_ object: ArchivedObject, entityName fallback: String?, of owner: String) throws {
        let entity = try object.value(forKey: "NSEntity")
        guard let name = try entity.object.map({ try $0.value(forKey: "NSEntityName").string }) ?? entity.string ?? fallback else {
            throw ModelCacheError("\(owner) fetches no entity")
        }
        entityName = name
        for key in ["NSFetchOffset", "NSValuesToFetch", "NSValuesToGroupBy", "NSHavingPredicate", "NSRelationshipKeyPathsForPrefetching"] {
            switch try object.value(forKey: key) {
            case .null, .integer(0): continue
            case .object(let value) where try value.classNames.contains { $0 == "NSArray" || $0 == "NSSet" } && value.elements().isEmpty: continue
            default: throw ModelCacheError("\(owner) has \(key), which a model does not hold")
            }
        }
        let predicateValue = try object.value(forKey: "NSPredicate")
        if predicateValue != .null {
            do {
                predicate = try ArchivedPredicate.text(of: predicateValue)
            } catch {
                throw ModelCacheError("\(owner)'s predicate is not read: \(error)")
            }
        }
        for sort in try object.value(forKey: "NSSortDescriptors").object?.elements() ?? [] {
            guard let sort = sort.object, let key = try sort.value(forKey: "NSKey").string else {
                throw ModelCacheError("\(owner) sorts by something other than a key")
            }
            let ascending = if case .boolean(let value) = try sort.value(forKey: "NSAscending") { value } else { false }
            sortDescriptors.append(FetchSortDescriptor(keyPath: key, ascending: ascending, selector: try sort.value(forKey: "NSSelector").string ?? "compare:"))
        }
        func integer(_ key: String) throws -> Int { try object.integer(forKey: key) ?? 0 }
        resultType = try integer("NSResultType")
        fetchLimit = try integer("NSFetchLimit")
        fetchBatchSize = try integer("NSBatchSize")
        let hasFlags = if case .boolean(true) = try object.value(forKey: "NSHasFetchRequestFlags") { true } else { false }
        flags = hasFlags ? try integer("NSFetchRequestFlags") : Self.defaultFlags
    }
}
