import Foundation
import GRDB

/// Where results controllers keep their section caches, and how to remove them.
///
/// A controller with a `cacheName` saves its section names and lengths there after reading
/// them, and the next `performFetch()` with the same name uses them instead of the `GROUP BY`
/// query — while the entity, its version hash, the predicate, the sort, the section key path and
/// the store file are all unchanged (the store file's state is its size and modification time,
/// WAL included: any write invalidates). In-memory stores are never cached, nor are server
/// stores, which other processes write without a file to show it.
///
/// A cache name stands for one request: a controller whose request differs from the one its
/// cache was made for (another predicate, sort, section key or entity) recomputes the sections
/// and replaces the cache, and the store logs a warning, once per name — Core Data logs an error
/// in that case. Give each request its own name, or delete the cache when a request changes.
public enum FetchedResultsCache {
    private static let storage = Locked<URL>(
        (FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("DataStore", isDirectory: true))

    /// The folder of the cache files (default: the user's caches folder, `DataStore/` inside).
    public static var directory: URL {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Removes the cache named `name`, or every cache when `name` is `nil`.
    public static func deleteCache(withName name: String?) {
        if let name {
            try? FileManager.default.removeItem(at: file(named: name))
        } else {
            let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
            for file in files where file.pathExtension == "sectioncache" { try? FileManager.default.removeItem(at: file) }
        }
    }

    static func file(named name: String) -> URL {
        let safe = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "cache"
        return directory.appendingPathComponent(safe).appendingPathExtension("sectioncache")
    }
}

extension FetchedResultsController {
    /// Removes the section cache named `name`, or every cache when `name` is `nil`.
    public static func deleteCache(withName name: String?) {
        FetchedResultsCache.deleteCache(withName: name)
    }
}

/// One controller's section cache file.
struct SectionCache {
    let name: String
    let file: URL
    /// Everything the cached sections depend on; a cache made under another key is ignored.
    let key: Key
    let store: PersistentStore
    /// The names whose cache was found made for another request, warned of once each.
    private static let warnedNames = Locked<Set<String>>([])

    struct Key: Codable, Equatable {
        var entity: String
        var entityVersionHash: [UInt8]
        var includesSubentities: Bool
        var predicate: String
        var sortDescriptors: [String]
        var sectionKeyPath: String
        var storeState: String

        /// What the controller asked for: the key without the store's state.
        var request: Key {
            var key = self
            key.storeState = ""
            return key
        }
    }

    private struct Contents: Codable {
        var key: Key
        var rowCount: Int
        var sections: [Section]
    }

    private struct Section: Codable {
        var name: String
        var count: Int
        var value: StoredValue
    }

    /// A `DatabaseValue` in a form JSON keeps exactly.
    private enum StoredValue: Codable {
        case null, integer(Int64), real(Double), text(String), blob(Data)

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case .int64(let number): self = .integer(number)
            case .double(let number): self = .real(number)
            case .string(let string): self = .text(string)
            case .blob(let data): self = .blob(data)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let string): string.databaseValue
            case .blob(let data): data.databaseValue
            }
        }
    }

    /// The cache of `controller` under `name`, or `nil` when its store is not a file.
    init?<Object>(name: String, controller: FetchedResultsController<Object>) {
        guard let plan = controller.plan, let url = plan.store.url, url.isFileURL, let state = Self.state(of: url) else { return nil }
        let request = controller.fetchRequest
        self.name = name
        store = plan.store
        file = FetchedResultsCache.file(named: name)
        key = Key(
            entity: plan.entity.name,
            entityVersionHash: plan.store.model.versionHashes.entityHashes[plan.entity.name] ?? [],
            includesSubentities: request.includesSubentities,
            predicate: request.predicate?.description ?? "",
            sortDescriptors: request.sortDescriptors.map(\.description),
            sectionKeyPath: controller.sectionNameKeyPath ?? "",
            storeState: plan.store.identifier + state)
    }

    /// The size and modification time of the store file and its WAL.
    private static func state(of url: URL) -> String? {
        let files = [url.path, url.path + "-wal"]
        let parts = files.map { path -> String in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "-" }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
            return "\(size)@\(modified)"
        }
        return "|" + parts.joined(separator: "|")
    }

    /// The cached runs, when the cache was made under the same key for `count` rows.
    func runs(count: Int) -> [ResultsList.SectionRun]? {
        guard let data = try? Data(contentsOf: file), let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return nil }
        if contents.key.request != key.request, Self.warnedNames.withLock({ $0.insert(name).inserted }) {
            store.warn("the section cache '\(name)' was made for another fetch request (entity, predicate, sort or section key); "
                + "its sections are computed again and the cache replaced. Use one cache name per request, or delete the cache when the request changes.")
        }
        guard contents.key == key, contents.rowCount == count else { return nil }
        return contents.sections.map { ResultsList.SectionRun(value: $0.value.databaseValue, name: $0.name, count: $0.count) }
    }

    /// Saves `runs`; a cache that cannot be written is simply not there next time.
    func store(_ runs: [ResultsList.SectionRun]) {
        let contents = Contents(
            key: key, rowCount: runs.reduce(0) { $0 + $1.count },
            sections: runs.map { Section(name: $0.name, count: $0.count, value: StoredValue($0.value)) })
        guard let data = try? JSONEncoder().encode(contents) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}
