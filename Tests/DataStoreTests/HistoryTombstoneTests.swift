import DataModel
@testable import DataStore
import Foundation
import GRDB
import Logging
import PostgreSQLStore
import PostgresNIO
import TestSupport
import Testing

/// Deletes keep the values of attributes marked "Preserve After Deletion" in their history
/// changes (Core Data's tombstones), however the object was deleted, and a migration carries them.
@Suite struct HistoryTombstoneTests {
    typealias S = MigrationSupport

    /// Notes preserve their title, creation date and rank (not their body); tags their label.
    static let notesV1 = S.version("V1", [
        Entity("Note", attributes: [
            Attribute("body", .string, isOptional: true),
            Attribute("created", .date, isOptional: true, preservesValueInHistoryOnDeletion: true),
            Attribute("rank", .integer64, isOptional: true, preservesValueInHistoryOnDeletion: true),
            Attribute("title", .string, isOptional: true, preservesValueInHistoryOnDeletion: true),
        ]),
        Entity("Tag", attributes: [Attribute("label", .string, isOptional: true, preservesValueInHistoryOnDeletion: true)]),
    ])

    static let created = Date(timeIntervalSinceReferenceDate: 700_000_000.5)

    /// Inserts the note "Groceries" (every value), the note "Ideas" (a title only) and the tag
    /// "home", and saves.
    static func seed(_ context: ObjectContext) throws -> (groceries: ObjectID, ideas: ObjectID, tag: ObjectID) {
        let groceries = try context.insertObject(entityName: "Note")
        try groceries.setValue("Groceries", forKey: "title")
        try groceries.setValue("milk, eggs", forKey: "body")
        try groceries.setValue(created, forKey: "created")
        try groceries.setValue(3, forKey: "rank")
        let ideas = try context.insertObject(entityName: "Note")
        try ideas.setValue("Ideas", forKey: "title")
        let tag = try context.insertObject(entityName: "Tag")
        try tag.setValue("home", forKey: "label")
        try context.save()
        return (groceries.objectID, ideas.objectID, tag.objectID)
    }

    /// The seeded objects, deleted, left their preserved values, which predicates on the history read.
    static func expectTombstones(in store: PersistentStore, _ groceries: ObjectID, _ ideas: ObjectID, _ tag: ObjectID) throws {
        let tombstones = try deleteChanges(store)
        #expect(tombstones[groceries] == ["title": .string("Groceries"), "created": .date(created), "rank": .integer(3)])
        #expect(tombstones[ideas] == ["title": .string("Ideas")], "values the object lacks are left out")
        #expect(tombstones[tag] == ["label": .string("home")])
        #expect(try store.fetchHistory(after: nil)[0].changes.allSatisfy { $0.tombstone == nil }, "inserts have none")
        let found = try store.fetchHistory(after: nil, matching: ObjectPredicate(format: "tombstone.title BEGINSWITH 'Gro' OR tombstone.label == 'home'"))
        #expect(found.flatMap(\.changes).map(\.changedObjectID) == [groceries, tag])
    }

    static func deleteChanges(_ store: PersistentStore) throws -> [ObjectID: [String: AttributeValue]?] {
        let changes = try store.fetchHistory(after: nil).flatMap(\.changes).filter { $0.changeType == .delete }
        return Dictionary(uniqueKeysWithValues: changes.map { ($0.changedObjectID, $0.tombstone) })
    }

    @Test func deletes_bySaveAndByBatch_keepThePreservedValues() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: Self.notesV1), history: .enabled)
        #expect(try S.columns(url, "ACHANGE").suffix(4) == ["ZCOLUMNS", "ZTOMBSTONE0", "ZTOMBSTONE1", "ZTOMBSTONE2"],
                "as many tombstone columns as the entity that preserves most")
        let (groceries, ideas, tag) = try Self.seed(store.newContext())

        // A fault deleted by a save: its values are read from the row it leaves.
        let context = store.newContext()
        context.delete(try context.existingObject(with: groceries))
        try context.save()
        _ = try context.execute(BatchDeleteRequest(objectIDs: [ideas]))
        _ = try context.execute(BatchDeleteRequest(FetchRequest<ManagedObject>(entityName: "Tag", predicate: ObjectPredicate(format: "label == 'home'"))))

        try Self.expectTombstones(in: store, groceries, ideas, tag)

        // Core Data's columns: the preserved attributes by name, each value stored as its column stores it.
        let stored = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ZTOMBSTONE0, ZTOMBSTONE1, ZTOMBSTONE2 FROM ACHANGE WHERE ZCHANGETYPE = 2 ORDER BY Z_PK")
        }
        #expect(stored.map { Array($0.databaseValues) } == [
            [Self.created.timeIntervalSinceReferenceDate.databaseValue, 3.databaseValue, "Groceries".databaseValue],
            [.null, .null, "Ideas".databaseValue],
            ["home".databaseValue, .null, .null],
        ])
    }

    /// Deletes by saves keep the preserved values on both engines: a fault's, read from its row,
    /// and a loaded object's; the history's predicates read them.
    @Test(arguments: TestedEngine.available) func deletesBySave_keepThePreservedValues(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(ManagedObjectModel(model: Self.notesV1), on: engine, history: .enabled) { store throws in
            let (groceries, ideas, tag) = try Self.seed(store.newContext())
            let context = store.newContext()
            context.delete(try context.existingObject(with: groceries))
            let loaded = try context.existingObject(with: ideas)
            #expect(loaded.value(forKey: "title") as? String == "Ideas")
            context.delete(loaded)
            context.delete(try context.existingObject(with: tag))
            try context.save()

            try Self.expectTombstones(in: store, groceries, ideas, tag)
        }
    }

    /// A PostgreSQL store whose history has fewer tombstone columns than the model needs (a copy
    /// of an older store's) gains the rest when opened, and keeps every preserved value.
    @Test(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
    func aServerHistoryWithFewerTombstoneColumns_gainsTheRest() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let model = ManagedObjectModel(model: Self.notesV1)
            _ = try await PersistentStore(postgreSQL: database, model: model)
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(url: database), id: 1, logger: Logger(label: "tests"))
            try await admin.query(#"ALTER TABLE "ACHANGE" DROP COLUMN "ZTOMBSTONE1", DROP COLUMN "ZTOMBSTONE2""#, logger: admin.logger)
            try await admin.close()
            let store = try await PersistentStore(postgreSQL: database, model: model)
            let groceries = try Self.deleteGroceries(store)
            #expect(try Self.deleteChanges(store)[groceries] == ["title": .string("Groceries"), "created": .date(Self.created), "rank": .integer(3)])
        }
    }

    static func deleteGroceries(_ store: PersistentStore) throws -> ObjectID {
        let groceries = try seed(store.newContext()).groceries
        let context = store.newContext()
        context.delete(try context.existingObject(with: groceries))
        try context.save()
        return groceries
    }

    /// A migration that renames a preserved attribute and adds another moves each value to the
    /// new version's column for it.
    @Test func migration_movesTombstonesToTheNewLayout() throws {
        let url = TestStores.newStoreURL()
        let groceries: ObjectID
        do {
            let store = try PersistentStore(url: url, model: ManagedObjectModel(model: Self.notesV1), history: .enabled)
            let context = store.newContext()
            groceries = try Self.seed(context).groceries
            context.delete(try context.existingObject(with: groceries))
            try context.save()
        }
        let v2 = S.version("V2", [
            Entity("Note", attributes: [
                Attribute("author", .string, isOptional: true, preservesValueInHistoryOnDeletion: true),
                Attribute("body", .string, isOptional: true),
                Attribute("created", .date, isOptional: true),
                Attribute("heading", .string, isOptional: true, preservesValueInHistoryOnDeletion: true, elementID: "title"),
                Attribute("rank", .integer64, isOptional: true, preservesValueInHistoryOnDeletion: true),
            ]),
            Entity("Tag", attributes: [Attribute("label", .string, isOptional: true, preservesValueInHistoryOnDeletion: true)]),
        ])
        let store = try S.open(url, v2, versions: [Self.notesV1, v2])
        let delete = try #require(try store.fetchHistory(after: nil).flatMap(\.changes).first { $0.changeType == .delete })
        #expect(delete.tombstone == ["heading": .string("Groceries"), "rank": .integer(3)], "created is no longer preserved")
        let stored = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchOne(db, sql: "SELECT ZTOMBSTONE0, ZTOMBSTONE1, ZTOMBSTONE2 FROM ACHANGE WHERE ZCHANGETYPE = 2")
        }
        #expect(stored.map { Array($0.databaseValues) } == [.null, "Groceries".databaseValue, 3.databaseValue])
    }
}
