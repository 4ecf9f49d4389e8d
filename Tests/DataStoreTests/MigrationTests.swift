import DataModel
@testable import DataStore
import Foundation
import GRDB
import StoreMigration
import Testing

/// Lightweight migration, one kind of change at a time: what the plan does, and that every value
/// and link reads back with the new version.
@Suite struct MigrationTests {
    typealias S = MigrationSupport

    static let personV1 = Entity("Person", attributes: [
        Attribute("name", .string, isOptional: true),
        Attribute("age", .integer64, isOptional: true),
    ], relationships: [
        Relationship("pets", destination: "Pet", inverseName: "owner", inverseEntityName: "Pet", isToMany: true, isOptional: true),
    ])
    static let petV1 = Entity("Pet", attributes: [Attribute("name", .string, isOptional: true)], relationships: [
        Relationship("owner", destination: "Person", inverseName: "pets", inverseEntityName: "Person", isOptional: true),
    ])
    static let v1 = S.version("V1", [personV1, petV1])

    /// Ann (age 40) with pets Rex and Tom, Bob (no age) with none.
    static func seed(_ context: ObjectContext) throws {
        let ann = try context.insertObject(entityName: "Person")
        try ann.setValue("Ann", forKey: "name")
        try ann.setValue(40, forKey: "age")
        let bob = try context.insertObject(entityName: "Person")
        try bob.setValue("Bob", forKey: "name")
        for name in ["Rex", "Tom"] {
            let pet = try context.insertObject(entityName: "Pet")
            try pet.setValue(name, forKey: "name")
            try pet.setValue(ann, forKey: "owner")
        }
    }

    /// Writes a version 1 store, opens it with `v2`, and returns the store and its file.
    static func migrated(to v2: Model, options: MigrationOptions = .automatic) throws -> (PersistentStore, URL) {
        let url = try S.store(v1, seed: seed)
        let store = try S.open(url, v2, versions: [v1, v2], migration: options)
        #expect(try S.integrity(url) == "ok")
        return (store, url)
    }

    static func v2(person: Entity = personV1, pet: Entity = petV1, more: [Entity] = []) -> Model {
        S.version("V2", [person, pet] + more)
    }

    /// A store with persistent history keeps it: changes name their entities by the new numbers,
    /// an update's properties by their new names, and changes of a removed entity go.
    @Test func historyOfTheStore_followsTheMigration() throws {
        let url = TestStores.newStoreURL()
        do {
            let store = try PersistentStore(url: url, model: ManagedObjectModel(model: Self.v1), history: .enabled)
            let context = store.newContext()
            try Self.seed(context)
            try context.save()
            let ann = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first { $0.value(forKey: "name") as? String == "Ann" })
            try ann.setValue("Ann Smith", forKey: "name")
            try ann.setValue(41, forKey: "age")
            try context.save()
        }
        var person = Self.personV1
        person.attributes[0] = Attribute("fullName", .string, isOptional: true, elementID: "name")
        person.relationships = []
        let v2 = S.version("V2", [Entity("Aardvark", attributes: [Attribute("name", .string, isOptional: true)]), person])
        let store = try S.open(url, v2, versions: [Self.v1, v2])
        #expect(store.tracksHistory)
        let history = try store.fetchHistory(after: nil)
        #expect(history.map(\.transactionNumber) == [1, 2])
        #expect(history[0].changes.map(\.changedObjectID.entityName) == ["Person", "Person"], "the pets' changes are gone with Pet")
        #expect(history[0].changes.map(\.changedObjectID.entityNumber) == [2, 2])
        #expect(history[1].changes.map(\.updatedProperties) == [["fullName", "age"]])
        let ann = try store.newContext().existingObject(with: history[1].changes[0].changedObjectID)
        #expect(ann.value(forKey: "fullName") as? String == "Ann Smith")
    }

    @Test func addingAnOptionalAttribute_isAnAlterTable_andKeepsEveryValue() throws {
        var person = Self.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        let v2 = Self.v2(person: person)
        let url = try S.store(Self.v1, seed: Self.seed)
        let plan = try #require(try PersistentStore.migrationPlan(at: url, model: ManagedObjectModel(model: v2, versions: [Self.v1, v2])))
        let sql = plan.statements.map(\.sql)
        #expect(sql.contains("ALTER TABLE ZPERSON ADD COLUMN ZEMAIL VARCHAR;"))
        #expect(!sql.contains { $0.hasPrefix("CREATE TABLE ZPERSON") || $0.hasPrefix("INSERT INTO ZPERSON") })
        let store = try S.open(url, v2, versions: [Self.v1, v2])
        let people = try S.objects(store, "Person")
        #expect(people.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        #expect(people[0].value(forKey: "age") as? Int64 == 40)
        #expect(people[0].value(forKey: "email") == nil)
        #expect(S.names(people[0].value(forKey: "pets")) == ["Rex", "Tom"])
        #expect(try S.columns(url, "ZPERSON").last == "ZEMAIL")
    }

    @Test func addedAttributeWithDefault_givesExistingObjectsTheDefault() throws {
        var pet = Self.petV1
        pet.attributes.append(Attribute("legs", .integer16, defaultValue: "4"))
        let (store, _) = try Self.migrated(to: Self.v2(pet: pet))
        #expect(try S.objects(store, "Pet").map { $0.value(forKey: "legs") as? Int64 } == [4, 4])
    }

    @Test func removingAnAttribute_rebuildsTheTable() throws {
        var person = Self.personV1
        person.attributes.removeAll { $0.name == "age" }
        let (store, url) = try Self.migrated(to: Self.v2(person: person))
        #expect(try S.columns(url, "ZPERSON") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"])
        let people = try S.objects(store, "Person")
        #expect(people.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        #expect(S.names(people[0].value(forKey: "pets")) == ["Rex", "Tom"])
    }

    @Test func renamingAnAttributeByElementID_movesItsValues() throws {
        var person = Self.personV1
        person.attributes[0] = Attribute("fullName", .string, isOptional: true, elementID: "name")
        let (store, _) = try Self.migrated(to: Self.v2(person: person))
        #expect(try S.objects(store, "Person", by: "fullName").map { $0.value(forKey: "fullName") as? String } == ["Ann", "Bob"])
    }

    @Test func optionalToRequiredWithDefault_fillsEmptyValues() throws {
        var person = Self.personV1
        person.attributes[1] = Attribute("age", .integer64, defaultValue: "18")
        let (store, _) = try Self.migrated(to: Self.v2(person: person))
        #expect(try S.objects(store, "Person").map { $0.value(forKey: "age") as? Int64 } == [40, 18])
    }

    @Test func optionalToRequiredWithoutDefault_failsOnEmptyValues_andChangesNothing() throws {
        var person = Self.personV1
        person.attributes[1] = Attribute("age", .integer64)
        let v2 = Self.v2(person: person)
        let url = try S.store(Self.v1, seed: Self.seed)
        #expect {
            _ = try S.open(url, v2, versions: [Self.v1, v2])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
            return blocked.map(\.rows) == [1] && blocked[0].change.subject == "Person.age"
        }
        // Untouched: version 1 still opens it as it was.
        #expect(try S.objects(PersistentStore(url: url, model: ManagedObjectModel(model: Self.v1)), "Person").count == 2)
    }

    @Test func changingAnAttributesType_isNotInferred_andNamesItsLocation() throws {
        let url = try S.store(Self.v1, seed: Self.seed)
        var person = Self.personV1
        person.attributes[1] = Attribute("age", .string, isOptional: true)
        person.attributes[1].location = SourceLocation(file: "Test.xcdatamodel/contents", line: 7, column: 9)
        let v2 = Self.v2(person: person)
        #expect {
            _ = try S.open(url, v2, versions: [Self.v1, v2])
        } throws: { error in
            guard case StoreError.migration(.notInferable(let changes)) = error else { return false }
            return changes.map(\.kind) == [.attributeTypeChanged] && "\(error)".contains("Test.xcdatamodel/contents:7:9: error: Person.age: type Integer 64 → String")
        }
        #expect(try S.objects(PersistentStore(url: url, model: ManagedObjectModel(model: Self.v1)), "Person").count == 2)
    }

    @Test func oneToManyBecomingManyToMany_movesLinksIntoAJoinTable() throws {
        var pet = Self.petV1
        pet.relationships[0] = Relationship("owner", destination: "Person", inverseName: "pets", inverseEntityName: "Person", isToMany: true, isOptional: true)
        let (store, url) = try Self.migrated(to: Self.v2(pet: pet))
        let people = try S.objects(store, "Person")
        #expect(S.names(people[0].value(forKey: "pets")) == ["Rex", "Tom"])
        #expect(S.names(try S.objects(store, "Pet")[0].value(forKey: "owner")) == ["Ann"])
        #expect(try !S.columns(url, "ZPET").contains("ZOWNER"))
    }

    @Test func toManyBecomingOrdered_keepsLinksInKeyOrder() throws {
        var person = Self.personV1
        person.relationships[0].isOrdered = true
        let (store, url) = try Self.migrated(to: Self.v2(person: person))
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Rex", "Tom"])
        #expect(try S.columns(url, "ZPET").contains("Z_FOK_OWNER"))
    }

    @Test func renamingAnEntityByElementID_keepsItsRowsAndItsOldNameInPrimaryKeyTable() throws {
        var pet = Self.petV1
        pet.name = "Animal"
        pet.elementID = "Pet"
        var person = Self.personV1
        person.relationships[0].destinationEntityName = "Animal"
        person.relationships[0].inverseEntityName = "Animal"
        let (store, url) = try Self.migrated(to: S.version("V2", [person, pet]))
        #expect(try S.objects(store, "Animal").map { $0.value(forKey: "name") as? String } == ["Rex", "Tom"])
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Rex", "Tom"])
        let names = try DatabaseQueue(path: url.path).read { try String.fetchAll($0, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT") }
        #expect(names == ["Pet", "Person"], "Animal (1) keeps the name Pet, as Core Data leaves it")
    }

    @Test func movingAnEntityIntoAHierarchy_givesItsRowsNewKeysAndKeepsLinks() throws {
        // Pet becomes a subentity of a new root, Creature, which Person also joins: Person's rows keep
        // their keys, Pet's move past them.
        let creature = Entity("Creature", isAbstract: true)
        var person = Self.personV1
        person.parentName = "Creature"
        var pet = Self.petV1
        pet.parentName = "Creature"
        let v2 = S.version("V2", [creature, person, pet])
        #expect(!ModelDifference(from: Self.v1, to: v2).isInferable, "two hierarchies merged")

        var onlyPet = Self.petV1
        onlyPet.parentName = "Creature"
        let v2b = S.version("V2", [creature, Self.personV1, onlyPet])
        let (store, url) = try Self.migrated(to: v2b)
        #expect(try S.objects(store, "Creature").map { $0.value(forKey: "name") as? String } == ["Rex", "Tom"])
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Rex", "Tom"])
        #expect(try DatabaseQueue(path: url.path).read { db in try Bool.fetchOne(db, sql: "SELECT count(*) = 0 FROM sqlite_master WHERE name = 'ZPET'") } == true)
    }

    @Test func movingAnEntityOutOfAHierarchy_movesItsRowsToItsOwnTable() throws {
        let student1 = Entity("Student", parentName: "Person", attributes: [Attribute("school", .string, isOptional: true)])
        let v1 = S.version("V1", [Self.personV1, Self.petV1, student1])
        let url = try S.store(v1) { context in
            try Self.seed(context)
            let sam = try context.insertObject(entityName: "Student")
            try sam.setValue("Sam", forKey: "name")
            try sam.setValue("MIT", forKey: "school")
        }
        let student2 = Entity("Student", attributes: [Attribute("name", .string, isOptional: true), Attribute("school", .string, isOptional: true)])
        let v2 = S.version("V2", [Self.personV1, Self.petV1, student2])
        let store = try S.open(url, v2, versions: [v1, v2])
        #expect(try S.objects(store, "Person").map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        let students = try S.objects(store, "Student")
        #expect(students.map { "\($0.value(forKey: "name") as? String ?? "") \($0.value(forKey: "school") as? String ?? "")" } == ["Sam MIT"])
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Rex", "Tom"])
        #expect(try S.integrity(url) == "ok")
    }

    @Test func removingAnEntity_deletesItsRowsAndTheLinksToThem() throws {
        var person = Self.personV1
        person.relationships = []
        let (store, url) = try Self.migrated(to: S.version("V2", [person]))
        #expect(try S.objects(store, "Person").count == 2)
        #expect(try DatabaseQueue(path: url.path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
            == ["ZPERSON", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
    }

    @Test func addingAnEntityThatSortsFirst_renumbersEveryEntity_andKeepsJoinTables() throws {
        // Many-to-many between Person and Pet; a new entity "Aardvark" renumbers both.
        var person = Self.personV1
        person.relationships[0] = Relationship("pets", destination: "Pet", inverseName: "owners", inverseEntityName: "Pet", isToMany: true, isOptional: true)
        var pet = Self.petV1
        pet.relationships[0] = Relationship("owners", destination: "Person", inverseName: "pets", inverseEntityName: "Person", isToMany: true, isOptional: true)
        let v1 = S.version("V1", [person, pet])
        let url = try S.store(v1) { context in
            let ann = try context.insertObject(entityName: "Person")
            try ann.setValue("Ann", forKey: "name")
            let rex = try context.insertObject(entityName: "Pet")
            try rex.setValue("Rex", forKey: "name")
            try rex.setValue([ann], forKey: "owners")
        }
        let joinBefore = try DatabaseQueue(path: url.path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE', 'Z_PRIMARYKEY')") }
        #expect(joinBefore == ["Z_1PETS"])
        let v2 = S.version("V2", [Entity("Aardvark", attributes: [Attribute("name", .string, isOptional: true)]), person, pet])
        let store = try S.open(url, v2, versions: [v1, v2])
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Rex"])
        let (tables, indexes) = try DatabaseQueue(path: url.path).read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_2PETS'"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Z_2PETS' AND sql IS NOT NULL ORDER BY name"))
        }
        #expect(tables == ["Z_2PETS"])
        // As Core Data leaves it: the old index keeps its name, the new one is added.
        #expect(indexes == ["Z_1PETS_Z_2PETS_INDEX", "Z_2PETS_Z_3PETS_INDEX"])
        #expect(try S.columns(url, "Z_2PETS") == ["Z_2OWNERS", "Z_3PETS"])
    }

    @Test func aStoreOfALaterVersion_isNeverDowngraded() throws {
        var person = Self.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        let v2 = Self.v2(person: person)
        let url = try S.store(v2) { _ in }
        #expect(throws: StoreError.migration(.storeIsNewer(storeVersion: "V2", modelVersion: "V1"))) {
            _ = try PersistentStore(url: url, model: ManagedObjectModel(model: Self.v1, versions: [Self.v1, v2]))
        }
    }

    @Test func migrationTurnedOff_reportsTheMismatch() throws {
        var person = Self.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        let v2 = Self.v2(person: person)
        let url = try S.store(Self.v1, seed: Self.seed)
        #expect(throws: StoreError.modelMismatch(entities: ["Person"])) {
            _ = try S.open(url, v2, versions: [Self.v1, v2], migration: .disabled)
        }
    }

    /// V1 `name` → V2 adds `firstName`/`lastName` (a custom stage splits `name`) → V3 drops `name`:
    /// one opening runs both stages.
    @Test func stagedMigration_chainsThreeVersions_withACustomStage() throws {
        let (v2, v3) = Self.splitNameVersions
        let url = try S.store(Self.v1) { context in
            for name in ["Ada Lovelace", "Alan Turing"] { try context.insertObject(entityName: "Person").setValue(name, forKey: "name") }
        }
        let reports = Locked<[String]>([])
        let options = MigrationOptions(stages: [
            Self.splittingNames,
            .lightweight(from: "V2", to: "V3"),
        ], progress: { report in reports.withLock { $0.append(report.summary) } })
        let store = try S.open(url, v3, versions: [Self.v1, v2, v3], migration: options)
        let people = try S.objects(store, "Person", by: "lastName")
        #expect(people.map { "\($0.value(forKey: "firstName") as? String ?? "") \($0.value(forKey: "lastName") as? String ?? "")" }
            == ["Ada Lovelace", "Alan Turing"])
        #expect(try !S.columns(url, "ZPERSON").contains("ZNAME"))
        #expect(!reports.withLock { $0 }.isEmpty)
    }

    /// V2 adds `firstName` and `lastName` to V1's Person; V3 drops `name`.
    static let splitNameVersions: (v2: Model, v3: Model) = {
        var person2 = personV1
        person2.attributes += [Attribute("firstName", .string, isOptional: true), Attribute("lastName", .string, isOptional: true)]
        var person3 = person2
        person3.attributes.removeAll { $0.name == "name" }
        return (S.version("V2", [person2, petV1]), S.version("V3", [person3, petV1]))
    }()

    /// V1 → V2, then each person's `name` split into `firstName` and `lastName`.
    static let splittingNames = MigrationStage.custom(from: "V1", to: "V2", didMigrate: { context in
        for person in try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")) {
            let parts = (person.value(forKey: "name") as? String ?? "").split(separator: " ").map(String.init)
            try person.setValue(parts.first, forKey: "firstName")
            try person.setValue(parts.last, forKey: "lastName")
        }
        try context.save()
    })
}
