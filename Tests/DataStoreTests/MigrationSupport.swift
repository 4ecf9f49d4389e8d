import DataModel
@testable import DataStore
import Foundation
import GRDB

/// Stores written by one model version and opened with another, for migration tests.
enum MigrationSupport {
    static func version(_ name: String, _ entities: [Entity]) -> Model {
        Model("Test.xcdatamodel", versionName: name, entities: entities)
    }

    /// A new store file written by `model`, with what `seed` inserts.
    static func store(_ model: Model, seed: (ObjectContext) throws -> Void) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("Test.sqlite")
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: model))
        let context = store.newContext()
        try seed(context)
        try context.save()
        return url
    }

    /// Two authors, three books of `Everything 1` (`name`, `pageCount`, `published`), each with
    /// three chapters in reverse order.
    static func everythingVersion1(_ context: ObjectContext) throws {
        let ursula = try context.insertObject(entityName: "Author")
        try ursula.setValue("Ursula K. Le Guin", forKey: "name")
        let unknown = try context.insertObject(entityName: "Author")
        for (title, pages, author) in [("The Dispossessed", 387, ursula), ("Lavinia", 279, ursula), ("Beowulf", 90, unknown)] {
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "name")
            try book.setValue(pages, forKey: "pageCount")
            try book.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "published")
            try book.setValue(author, forKey: "author")
            let chapters = try (1...3).map { number in
                let chapter = try context.insertObject(entityName: "Chapter")
                try chapter.setValue("\(title) \(number)", forKey: "title")
                return chapter
            }
            try book.setValue(Array(chapters.reversed()), forKey: "chapters")
        }
    }

    /// Opens `url` with `current`, whose bundle holds `versions` (oldest first).
    static func open(_ url: URL, _ current: Model, versions: [Model], migration: MigrationOptions = .automatic) throws -> PersistentStore {
        try PersistentStore(url: url, model: ManagedObjectModel(model: current, versions: versions), migration: migration)
    }

    /// Contexts of `objects(_:_:by:)`, kept so the objects they return can fire faults.
    private static let contexts = Locked<[AnyObject]>([])

    /// Every object of `entity` (subentities included), ordered by the string attribute `key`.
    static func objects(_ store: PersistentStore, _ entity: String, by key: String = "name") throws -> [ManagedObject] {
        let context = store.newContext()
        contexts.withLock { $0.append(context) }
        return try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
            .sorted { ($0.value(forKey: key) as? String ?? "") < ($1.value(forKey: key) as? String ?? "") }
    }

    static func names(_ value: Any?, key: String = "name") -> [String] {
        switch value {
        case let array as [ManagedObject]: array.map { $0.value(forKey: key) as? String ?? "" }
        case let set as Set<ManagedObject>: set.map { $0.value(forKey: key) as? String ?? "" }.sorted()
        case let object as ManagedObject: [object.value(forKey: key) as? String ?? ""]
        default: []
        }
    }

    /// The file's bytes but for the header's change counters (offsets 24 and 92), which opening a
    /// SQLite file for writing bumps, and nothing else the store holds.
    static func pages(_ url: URL) throws -> Data {
        var data = try Data(contentsOf: url)
        for offset in Array(24..<28) + Array(92..<96) where offset < data.count { data[offset] = 0 }
        return data
    }

    /// `PRAGMA integrity_check` of the file.
    static func integrity(_ url: URL) throws -> String {
        try DatabaseQueue(path: url.path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "" }
    }

    static func columns(_ url: URL, _ table: String) throws -> [String] {
        try DatabaseQueue(path: url.path).read { try $0.columns(in: table).map(\.name) }
    }
}
