import DataModel
import DataModelParser
@testable import DataStore
import Foundation
import Logging
import PostgreSQLStore
import PostgresNIO
import StoreMigration
import Testing
import TestSupport

/// Migration on PostgreSQL: each kind of change migrated on a server and in a file from the same
/// version 1 store, and read back alike — every object, value, link and order, `Z_PRIMARYKEY` and
/// the persistent history — and what a server adds: transactions that change nothing when a step
/// fails, and servers that open a store at once migrating it once.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLMigrationTests {
    typealias S = MigrationSupport
    typealias M = MigrationTests

    /// A store written by `source`, migrated to `destination`.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var source: Model
        var destination: Model
        var seed: @Sendable (ObjectContext) throws -> Void = MigrationTests.seed
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = {
        var scenarios: [Scenario] = []
        func add(_ name: String, person: Entity = M.personV1, pet: Entity = M.petV1, more: [Entity] = []) {
            scenarios.append(Scenario(name: name, source: M.v1, destination: M.v2(person: person, pet: pet, more: more)))
        }
        var person = M.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        add("an optional attribute added", person: person)
        var pet = M.petV1
        pet.attributes += [Attribute("legs", .integer16, defaultValue: "4"), Attribute("isFriendly", .boolean, defaultValue: "YES"),
                           Attribute("weight", .double, defaultValue: "2.5"), Attribute("price", .decimal, defaultValue: "9.99"),
                           Attribute("tag", .uuid, isOptional: true)]
        add("attributes added with defaults of every kind", pet: pet)
        person = M.personV1
        person.attributes.removeAll { $0.name == "age" }
        add("an attribute removed", person: person)
        person = M.personV1
        person.attributes[0] = Attribute("fullName", .string, isOptional: true, elementID: "name")
        add("an attribute renamed", person: person)
        person = M.personV1
        person.attributes[1] = Attribute("age", .integer64, defaultValue: "18")
        add("an attribute made required with a default", person: person)
        pet = M.petV1
        pet.relationships[0] = Relationship("owner", destination: "Person", inverseName: "pets", inverseEntityName: "Person", isToMany: true, isOptional: true)
        add("one-to-many becoming many-to-many", pet: pet)
        person = M.personV1
        person.relationships[0] = Relationship("pets", destination: "Pet", inverseName: "owner", inverseEntityName: "Pet", isOptional: true)
        pet = M.petV1
        pet.relationships[0].isToMany = true
        // Each person with one pet at most, as the change needs.
        scenarios.append(Scenario(name: "to-many becoming to-one", source: M.v1, destination: M.v2(person: person, pet: pet)) { context in
            for (name, petName) in [("Ann", "Rex"), ("Bob", "Tom")] {
                let person = try context.insertObject(entityName: "Person")
                try person.setValue(name, forKey: "name")
                let pet = try context.insertObject(entityName: "Pet")
                try pet.setValue(petName, forKey: "name")
                try pet.setValue(person, forKey: "owner")
            }
        })
        person = M.personV1
        person.relationships[0].isOrdered = true
        add("to-many becoming ordered", person: person)
        // Types changed between numbers and Booleans: the table is rebuilt with the new column types.
        for type in [AttributeType.double, .integer16, .decimal] {
            person = M.personV1
            person.attributes[1] = Attribute("age", type, isOptional: true)
            add("Integer 64 becoming \(type.rawValue)", person: person)
        }
        pet = M.petV1
        pet.attributes.append(Attribute("isFriendly", .boolean, defaultValue: "YES"))
        var counted = M.petV1
        counted.attributes.append(Attribute("isFriendly", .integer32, defaultValue: "1"))
        scenarios.append(Scenario(name: "Boolean becoming Integer 32", source: M.v2(pet: pet), destination: S.version("V3", [M.personV1, counted])))
        scenarios.append(Scenario(name: "Integer 32 becoming Boolean", source: M.v2(pet: counted), destination: S.version("V3", [M.personV1, pet])))
        pet = M.petV1
        pet.name = "Animal"
        pet.elementID = "Pet"
        person = M.personV1
        person.relationships[0].destinationEntityName = "Animal"
        person.relationships[0].inverseEntityName = "Animal"
        scenarios.append(Scenario(name: "an entity renamed", source: M.v1, destination: S.version("V2", [person, pet])))
        pet = M.petV1
        pet.parentName = "Creature"
        scenarios.append(Scenario(
            name: "an entity moved into a new hierarchy", source: M.v1,
            destination: S.version("V2", [Entity("Creature", isAbstract: true), M.personV1, pet])))
        person = M.personV1
        person.relationships = []
        scenarios.append(Scenario(name: "an entity removed", source: M.v1, destination: S.version("V2", [person])))
        person = M.personV1
        func derived(_ name: String, _ type: AttributeType, _ expression: String) -> Attribute {
            var attribute = Attribute(name, type, isOptional: true)
            attribute.isDerived = true
            attribute.derivationExpression = expression
            return attribute
        }
        person.attributes += [derived("loudName", .string, "name.uppercase:"), derived("petCount", .integer64, "pets.@count")]
        add("derived attributes added", person: person)
        // Many-to-many, renumbered by an entity that sorts first: the join table is renamed.
        person = M.personV1
        person.relationships[0] = Relationship("pets", destination: "Pet", inverseName: "owners", inverseEntityName: "Pet", isToMany: true, isOptional: true)
        pet = M.petV1
        pet.relationships[0] = Relationship("owners", destination: "Person", inverseName: "pets", inverseEntityName: "Person", isToMany: true, isOptional: true)
        let manyToMany = S.version("V1", [person, pet])
        scenarios.append(Scenario(
            name: "an entity added that renumbers a many-to-many", source: manyToMany,
            destination: S.version("V2", [Entity("Aardvark", attributes: [Attribute("name", .string, isOptional: true)]), person, pet]),
            seed: { context in
                let people = try ["Ann", "Bob"].map { name in
                    let person = try context.insertObject(entityName: "Person")
                    try person.setValue(name, forKey: "name")
                    return person
                }
                for (name, owners) in [("Rex", people), ("Tom", [people[1]])] {
                    let pet = try context.insertObject(entityName: "Pet")
                    try pet.setValue(name, forKey: "name")
                    try pet.setValue(Set(owners), forKey: "owners")
                }
            }))
        // Names longer than PostgreSQL's 63 bytes, which it keeps cut: a kept table, then a rebuilt one.
        var longNamed = M.personV1
        var long = Attribute("nicknameThatTheOwnerChoseForThemselvesLongBeforeTheyOwnedAnyPetsAtAll", .string, isOptional: true)
        long.isIndexed = true
        longNamed.attributes.append(long)
        let longV1 = S.version("V1", [longNamed, M.petV1])
        let nickname = long.name
        let nicknames: @Sendable (ObjectContext) throws -> Void = { context in
            try MigrationTests.seed(context)
            for person in try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")) {
                try person.setValue("\(person.value(forKey: "name") as? String ?? "")ie", forKey: nickname)
            }
        }
        person = longNamed
        person.attributes.append(Attribute("email", .string, isOptional: true))
        scenarios.append(Scenario(name: "names past 63 bytes, kept", source: longV1, destination: S.version("V2", [person, M.petV1]), seed: nicknames))
        person = longNamed
        person.attributes.removeAll { $0.name == "age" }
        scenarios.append(Scenario(name: "names past 63 bytes, rebuilt", source: longV1, destination: S.version("V2", [person, M.petV1]), seed: nicknames))
        return scenarios
    }()

    /// The same version 1 store, migrated in a file and on a server, reads back alike.
    @Test(arguments: scenarios)
    func aMigrationOnAServer_leavesWhatItLeavesInAFile(_ scenario: Scenario) async throws {
        try await Self.compare(scenario.source, scenario.destination, seed: scenario.seed)
    }

    /// `Everything 1` → `Everything 2`: a new abstract parent, a renamed attribute, a value made
    /// required with a default, renumbered entities, an ordered to-many, and a derived count.
    @Test func theBundledModelsVersions_migrateAlike() async throws {
        let bundle = TestStores.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let versions = try ModelLoader().loadVersions(bundle).versions.map(\.model)
        try await Self.compare(versions[0], versions[1], seed: S.everythingVersion1)
    }

    /// A step the data prevents, or that a unique index refuses, changes nothing on the server.
    @Test func aFailingStep_leavesTheStoreAsItWas() async throws {
        var person = M.personV1
        person.attributes[1] = Attribute("age", .integer64)
        let required = M.v2(person: person)
        person = M.personV1
        person.uniquenessConstraints = [UniquenessConstraint(properties: [NameReference("age", at: .generated)], location: .generated)]
        let unique = M.v2(person: person)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database) { context in
                try M.seed(context)
                try context.insertObject(entityName: "Person").setValue(40, forKey: "age")
            }
            await #expect {
                _ = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: required, versions: [M.v1, required]))
            } throws: { error in
                guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
                return blocked.map(\.rows) == [1] && blocked[0].change.subject == "Person.age"
            }
            await #expect {
                _ = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: unique, versions: [M.v1, unique]))
            } throws: { error in
                // Ann and the person inserted after Bob are both 40: rows 1 and 3.
                guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
                return blocked.map(\.change.kind) == [.constraintsChanged] && blocked[0].firstKeys == [1, 3]
            }
            let store = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: M.v1), migration: .disabled)
            #expect(try S.objects(store, "Person").count == 3)
            #expect(try S.names(S.objects(store, "Person")[1].value(forKey: "pets")) == ["Rex", "Tom"])
        }
    }

    /// A server whose disk fills as the step ends fails it with `storageFull`, changing nothing.
    /// The server says so as it would: a trigger raises `disk_full` when the step writes the new
    /// version's metadata, its last statement.
    @Test func aFullDisk_failsTheStepAsStorageFull() async throws {
        let v2 = Self.withoutAge
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database, seed: M.seed)
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(url: database), id: 1, logger: Logger(label: "tests"))
            do {
                try await admin.query("""
                    CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS
                    $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$
                    """, logger: admin.logger)
                try await admin.query(
                    #"CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE OR DELETE ON "Z_METADATA" EXECUTE FUNCTION disk_full()"#, logger: admin.logger)
            } catch {
                Issue.record("\(String(reflecting: error))")
            }
            try await admin.close()
            await #expect(throws: StoreError.migration(.storageFull)) {
                _ = try await PersistentStore.migrateStore(postgreSQL: database, model: ManagedObjectModel(model: v2, versions: [M.v1, v2]))
            }
            let store = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: M.v1), migration: .disabled)
            #expect(try Set(S.objects(store, "Person").map { "\($0.value(forKey: "name") ?? "") \($0.value(forKey: "age") ?? "")" }) == ["Ann 40", "Bob "])
        }
    }

    /// The plan, printed first, is PostgreSQL's SQL, and changes nothing.
    @Test func thePlan_isTheServersSQL_andChangesNothing() async throws {
        var person = M.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        person.attributes.removeAll { $0.name == "age" }
        let v2 = M.v2(person: person)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database, seed: M.seed)
            let model = ManagedObjectModel(model: v2, versions: [M.v1, v2])
            let plan = try #require(try await PersistentStore.migrationPlan(postgreSQL: database, model: model))
            let sql = plan.statements.map(\.sql)
            #expect(sql.contains(#"CREATE TABLE "ZPERSON" ( "Z_PK" bigint PRIMARY KEY, "Z_ENT" integer, "Z_OPT" bigint, "ZEMAIL" text COLLATE "C", "ZNAME" text COLLATE "C" );"#))
            // A copy takes the keys of each range it copies as its two parameters.
            let copy = #"INSERT INTO "ZPERSON" ("Z_PK", "Z_ENT", "Z_OPT", "ZEMAIL", "ZNAME") SELECT x."Z_PK", x."Z_ENT", x."Z_OPT", NULL, x."ZNAME" FROM "Z_MIGRATION_OLD_ZPERSON" AS x WHERE x."Z_ENT" = 1 AND x."Z_PK" BETWEEN $1 AND $2;"#
            #expect(sql.contains(copy))
            #expect(plan.description.contains(copy), "the printed plan is the SQL that runs")
            #expect(try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: M.v1), migration: .disabled).url != nil)
            #expect(try await PersistentStore.migrationPlan(postgreSQL: database, model: ManagedObjectModel(model: M.v1)) == nil)
        }
    }

    /// A database without a store has no plan, and a store no version of the model wrote fails to
    /// open naming the entities that differ, as a file does.
    @Test func noStore_andAStoreOfNoKnownVersion_sayWhatTheyAre() async throws {
        var person = M.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        let v2 = M.v2(person: person)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            await #expect {
                _ = try await PersistentStore.migrationPlan(postgreSQL: database, model: ManagedObjectModel(model: v2, versions: [M.v1, v2]))
            } throws: { error in
                if case StoreError.notAStore = error { true } else { false }
            }
            try await Self.write(M.v1, to: database, seed: M.seed)
            await #expect(throws: StoreError.modelMismatch(entities: ["Person"])) {
                _ = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: v2))
            }
        }
    }

    /// A mapping model runs on a server as in a file: the store reads back as the mapping makes
    /// it, and a migration that fails — a policy the app does not provide, objects that break the
    /// model's rules — leaves the store at its version with every object.
    @Test func aMappingModel_migratesAServerStore_orLeavesItAsItWas() async throws {
        typealias Mapping = MappingModelMigrationTests
        let model = ManagedObjectModel(model: Mapping.v2, versions: [Mapping.v1, Mapping.v2])
        func expectUnchanged(_ database: String) async throws {
            let store = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: Mapping.v1), migration: .disabled)
            #expect(try S.objects(store, "Book", by: "title").map { $0.value(forKey: "title") as? String } == ["", "Lavinia", "The Dispossessed"])
        }
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(Mapping.v1, to: database, seed: Mapping.seed)
            await #expect(throws: StoreError.migration(.missingMigrationPolicy(className: "Shelf.BookPolicy", entityMapping: "BookToBook"))) {
                _ = try await PersistentStore.migrateStore(postgreSQL: database, model: model, options: MigrationOptions(mappingModels: [Mapping.mapping]))
            }
            try await expectUnchanged(database)
            var unnamed = Mapping.mapping
            unnamed.entityMappings[0].attributeMappings[0].valueExpression = "nil"
            await #expect(throws: StoreError.self) {
                _ = try await PersistentStore.migrateStore(
                    postgreSQL: database, model: model, options: MigrationOptions(mappingModels: [unnamed], migrationPolicies: Mapping.options.migrationPolicies))
            }
            try await expectUnchanged(database)

            // Opening migrates, as for a file.
            let store = try await PersistentStore(postgreSQL: database, model: model, migration: Mapping.options)
            try Mapping.expectMigrated(store)
            let context = store.newContext()
            let book = try context.insertObject(entityName: "Book")
            try book.setValue("Tehanu", forKey: "name")
            try await context.save()
            #expect(try S.objects(store, "Book").count == 4)
        }
        // A filter the server's SQL cannot judge (a text comparison) is judged in memory, as a fetch is.
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(Mapping.v1, to: database, seed: Mapping.seed)
            var filtered = Mapping.mapping
            filtered.entityMappings[1].filterPredicate = "title BEGINSWITH[c] 'l'"
            let store = try await PersistentStore(postgreSQL: database, model: model, migration: MigrationOptions(
                mappingModels: [filtered], migrationPolicies: Mapping.options.migrationPolicies))
            #expect(try S.objects(store, "Book").map { $0.value(forKey: "name") as? String } == ["Lavinia"])
        }
    }

    /// Servers that start at once with a new version migrate the store once.
    @Test func serversOpeningAtOnce_migrateTheStoreOnce() async throws {
        let v2 = Self.withoutAge
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database, seed: M.seed)
            let model = ManagedObjectModel(model: v2, versions: [M.v1, v2])
            async let first = PersistentStore.migrateStore(postgreSQL: database, model: model)
            async let second = PersistentStore.migrateStore(postgreSQL: database, model: model)
            let plans = try await [first, second]
            #expect(plans.map(\.count).sorted() == [0, 1])
            let store = try await PersistentStore(postgreSQL: database, model: model, migration: .disabled)
            #expect(try S.objects(store, "Person").map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        }
    }

    /// A custom stage's contexts work on the server's store: V1 → V2 splits `name`, V3 drops it.
    @Test func aStagedMigration_runsItsStagesOnTheServer() async throws {
        let (v2, v3) = M.splitNameVersions
        let options = MigrationOptions(stages: [M.splittingNames])
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database) { context in
                for name in ["Ada Lovelace", "Alan Turing"] { try context.insertObject(entityName: "Person").setValue(name, forKey: "name") }
            }
            let plans = try await PersistentStore.migrateStore(
                postgreSQL: database, model: ManagedObjectModel(model: v3, versions: [M.v1, v2, v3]), options: options)
            #expect(plans.map(\.destinationVersion) == ["V2", "V3"])
            let store = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: v3, versions: [M.v1, v2, v3]))
            #expect(try S.objects(store, "Person", by: "lastName").map {
                "\($0.value(forKey: "firstName") as? String ?? "") \($0.value(forKey: "lastName") as? String ?? "")"
            } == ["Ada Lovelace", "Alan Turing"])
        }
    }

    /// Servers that start at once with a staged migration run it once, custom stages included:
    /// the others wait for the whole of it, then find the store migrated.
    @Test func serversOpeningAtOnce_runAStagedMigrationOnce() async throws {
        let (v2, v3) = M.splitNameVersions
        let stagesRun = Locked<[String]>([])
        let options = MigrationOptions(stages: [
            .custom(from: "V1", to: "V2", willMigrate: { _ in stagesRun.withLock { $0.append("will") } }, didMigrate: { context in
                stagesRun.withLock { $0.append("did") }
                try M.splittingNames.didMigrate?(context)
            }),
        ])
        let model = ManagedObjectModel(model: v3, versions: [M.v1, v2, v3])
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await Self.write(M.v1, to: database) { context in
                for name in ["Ada Lovelace", "Alan Turing"] { try context.insertObject(entityName: "Person").setValue(name, forKey: "name") }
            }
            async let first = PersistentStore.migrateStore(postgreSQL: database, model: model, options: options)
            async let second = PersistentStore.migrateStore(postgreSQL: database, model: model, options: options)
            async let third = PersistentStore(postgreSQL: database, model: model, migration: options)
            let plans = try await [first, second].map(\.count)
            let store = try await third
            #expect(plans.sorted() == [0, 0] || plans.sorted() == [0, 2])
            #expect(stagesRun.withLock { $0 } == ["will", "did"])
            #expect(try S.objects(store, "Person", by: "lastName").map { $0.value(forKey: "firstName") as? String } == ["Ada", "Alan"])
        }
    }

    // MARK: Support

    /// Version 2 of `MigrationTests.v1`: Person without `age`.
    static let withoutAge: Model = {
        var person = M.personV1
        person.attributes.removeAll { $0.name == "age" }
        return M.v2(person: person)
    }()

    /// Writes a store of `model` with what `seed` inserts into the empty `database`.
    static func write(_ model: Model, to database: String, seed: (ObjectContext) throws -> Void) async throws {
        let store = try await PersistentStore(postgreSQL: database, model: ManagedObjectModel(model: model))
        let context = store.newContext()
        try seed(context)
        try await context.save()
    }

    private static func writeFile(_ model: Model, to url: URL, seed: (ObjectContext) throws -> Void) throws {
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: model), history: .enabled)
        let context = store.newContext()
        try seed(context)
        try context.save()
    }

    /// Migrates a store written by `source` with `seed` to `destination`, in a file and on a
    /// server, and expects both to read back alike.
    static func compare(_ source: Model, _ destination: Model, seed: (ObjectContext) throws -> Void) async throws {
        let url = TestStores.newStoreURL()
        try writeFile(source, to: url, seed: seed)
        let model = ManagedObjectModel(model: destination, versions: [source, destination])
        let file = try PersistentStore(url: url, model: model, history: .enabled)
        let expected = try contents(of: file, destination)
        #expect(!expected.objects.isEmpty)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await write(source, to: database, seed: seed)
            let server = try await PersistentStore(postgreSQL: database, model: model)
            let found = try TestStores.$serverDatabase.withValue(database) { try contents(of: server, destination) }
            #expect(found.objects == expected.objects)
            #expect(found.primaryKeys == expected.primaryKeys)
            #expect(found.history == expected.history)
        }
    }

    /// Every object of every entity with its values and links, the entities' rows of
    /// `Z_PRIMARYKEY`, and the history.
    static func contents(of store: PersistentStore, _ model: Model) throws -> (objects: [String], primaryKeys: [[String]], history: [String]) {
        let context = store.newContext()
        func name(_ object: ManagedObject) -> String { "\(object.entity.name)#\(object.objectID.primaryKey ?? 0)" }
        var objects: [String] = []
        for entity in model.entities where !entity.isAbstract {
            let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)).filter { $0.entity.name == entity.name }
            for object in fetched.sorted(by: { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }) {
                var fields = [name(object)]
                for attribute in object.entity.attributes {
                    fields.append("\(attribute.name)=\(object.value(forKey: attribute.name).map { "\($0)" } ?? "nil")")
                }
                for relationship in object.entity.relationships {
                    let destinations: [String] = switch object.value(forKey: relationship.name) {
                    case let array as [ManagedObject]: array.map(name)
                    case let set as Set<ManagedObject>: set.map(name).sorted()
                    case let one as ManagedObject: [name(one)]
                    default: []
                    }
                    fields.append("\(relationship.name)=\(destinations)")
                }
                objects.append(fields.joined(separator: " "))
            }
        }
        let primaryKeys = try TestStores.rows(#"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" < 16000 ORDER BY 1"#, in: store)
        let history = try store.fetchHistory(after: nil).flatMap { transaction in
            transaction.changes.map { "\(transaction.transactionNumber) \($0.changeType) \($0.changedObjectID.entityName)#\($0.changedObjectID.primaryKey ?? 0) \(($0.updatedProperties ?? []).sorted())" }
        }
        return (objects, primaryKeys, history)
    }
}
