import DataModel
@testable import DataStore
import Foundation
import GRDB
import StoreMigration
import Testing

/// Changes only some data makes unsafe: the migration checks the store, goes ahead when no object
/// is in the way, and otherwise refuses, naming the change, the number of objects and their first
/// keys, and leaving the file byte for byte as it was (but for the header's change counters, which
/// opening a SQLite file for writing bumps).
@Suite struct DataDependentMigrationTests {
    typealias S = MigrationSupport

    // MARK: A relationship narrowed to a subentity

    static let person = Entity("Person", attributes: [Attribute("name", .string, isOptional: true)])
    static let employee = Entity("Employee", parentName: "Person", attributes: [Attribute("badge", .integer32, isOptional: true)])
    static func company(owner destination: String) -> Entity {
        Entity("Company", attributes: [Attribute("name", .string, isOptional: true)], relationships: [
            Relationship("owner", destination: destination, isOptional: true),
        ])
    }
    static let before = S.version("V1", [company(owner: "Person"), employee, person])
    static let after = S.version("V2", [company(owner: "Employee"), employee, person])

    /// Companies Acme, Bolt and Core; `owners` names the entity of each one's owner (`nil`: none).
    static func companies(owners: [String?]) throws -> URL {
        try S.store(before) { context in
            for (name, owner) in zip(["Acme", "Bolt", "Core"], owners) {
                let company = try context.insertObject(entityName: "Company")
                try company.setValue(name, forKey: "name")
                guard let owner else { continue }
                let person = try context.insertObject(entityName: owner)
                try person.setValue("\(owner) of \(name)", forKey: "name")
                try company.setValue(person, forKey: "owner")
            }
        }
    }

    @Test func narrowingADestination_dependsOnTheData() {
        let change = ModelDifference(from: Self.before, to: Self.after).changes.first { $0.kind == .relationshipDestinationChanged }
        #expect(change?.inference == .inferredIfData("every object it links to is of entity Employee"))
        let unrelated = S.version("V2", [Self.company(owner: "Company"), Self.employee, Self.person])
        #expect(ModelDifference(from: Self.before, to: unrelated).blockingChanges.map(\.kind) == [.relationshipDestinationChanged])
    }

    @Test(arguments: [[nil, nil, nil], ["Employee", nil, "Employee"]] as [[String?]])
    func narrowingADestination_migratesWhenEveryLinkConforms(owners: [String?]) throws {
        let url = try Self.companies(owners: owners)
        let store = try S.open(url, Self.after, versions: [Self.before, Self.after])
        let companies = try S.objects(store, "Company")
        #expect(companies.map { $0.value(forKey: "name") as? String } == ["Acme", "Bolt", "Core"])
        #expect(companies.map { S.names($0.value(forKey: "owner")) } == owners.enumerated().map { index, owner in
            owner.map { ["\($0) of \(["Acme", "Bolt", "Core"][index])"] } ?? []
        })
        #expect(try S.objects(store, "Person").count == owners.compactMap { $0 }.count)
    }

    @Test func narrowingADestination_refusesLinksToOtherObjects_naming_them() throws {
        let url = try Self.companies(owners: ["Employee", "Person", "Person"])
        let bytes = try S.pages(url)
        #expect {
            _ = try S.open(url, Self.after, versions: [Self.before, Self.after])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error, blocked.count == 1 else { return false }
            // Bolt and Core, the companies whose owners are plain people, are rows 2 and 3 of ZCOMPANY.
            return blocked[0].change.subject == "Company.owner" && blocked[0].rows == 2 && blocked[0].firstKeys == [2, 3]
                && "\(error)".contains("Company.owner: destination Person → Employee: 2 objects in the way (Z_PK 2, 3)")
        }
        #expect(try S.pages(url) == bytes)
    }

    // MARK: To-many becoming to-one

    /// Person.pets becomes to-one: Ann has `pets` pets.
    static func toOne(pets: Int) throws -> (url: URL, v2: Model) {
        let url = try S.store(MigrationTests.v1) { context in
            let ann = try context.insertObject(entityName: "Person")
            try ann.setValue("Ann", forKey: "name")
            for index in 0..<pets {
                let pet = try context.insertObject(entityName: "Pet")
                try pet.setValue("Pet \(index)", forKey: "name")
                try pet.setValue(ann, forKey: "owner")
            }
        }
        var person = MigrationTests.personV1
        person.relationships[0].isToMany = false
        return (url, MigrationTests.v2(person: person))
    }

    @Test func toManyBecomingToOne_migratesWhenNoObjectHasSeveral() throws {
        let (url, v2) = try Self.toOne(pets: 1)
        let store = try S.open(url, v2, versions: [MigrationTests.v1, v2])
        #expect(S.names(try S.objects(store, "Person")[0].value(forKey: "pets")) == ["Pet 0"])
        #expect(S.names(try S.objects(store, "Pet")[0].value(forKey: "owner")) == ["Ann"])
    }

    @Test func toManyBecomingToOne_refusesObjectsWithSeveral() throws {
        let (url, v2) = try Self.toOne(pets: 2)
        let bytes = try S.pages(url)
        #expect {
            _ = try S.open(url, v2, versions: [MigrationTests.v1, v2])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
            return blocked.map(\.change.subject) == ["Person.pets"] && blocked[0].rows == 1 && blocked[0].firstKeys == [1]
        }
        #expect(try S.pages(url) == bytes)
    }

    // MARK: A uniqueness constraint added

    static func names(_ names: [String?]) throws -> (url: URL, v2: Model) {
        let url = try S.store(MigrationTests.v1) { context in
            for name in names { try context.insertObject(entityName: "Person").setValue(name, forKey: "name") }
        }
        var person = MigrationTests.personV1
        person.uniquenessConstraints = [UniquenessConstraint(["name"])]
        return (url, MigrationTests.v2(person: person))
    }

    @Test func aConstraintOverUniqueValues_migrates_missingValuesClashingWithNothing() throws {
        let (url, v2) = try Self.names(["Ann", "Bob", nil, nil])
        let store = try S.open(url, v2, versions: [MigrationTests.v1, v2])
        #expect(try S.objects(store, "Person").map { $0.value(forKey: "name") as? String } == [nil, nil, "Ann", "Bob"])
    }

    @Test func aConstraintOverDuplicates_refusesNamingEveryDuplicate() throws {
        let (url, v2) = try Self.names(["Ann", "Bob", "Ann", "Cy", "Bob", "Ann"])
        let bytes = try S.pages(url)
        #expect {
            _ = try S.open(url, v2, versions: [MigrationTests.v1, v2])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
            return blocked.map(\.change.kind) == [.constraintsChanged] && blocked[0].rows == 5 && blocked[0].firstKeys == [1, 2, 3, 5, 6]
        }
        #expect(try S.pages(url) == bytes)
    }

    // MARK: The plan reports

    @Test func thePlan_reportsWhatEachCheckFound() throws {
        let url = try Self.companies(owners: ["Person", nil, "Employee"])
        let plan = try #require(try PersistentStore.migrationPlan(at: url, model: ManagedObjectModel(model: Self.after, versions: [Self.before, Self.after])))
        #expect(plan.preconditions.map(\.objectsInTheWay) == [1])
        #expect(plan.description.contains("Checked first:\n  Company.owner: every object it links to is of entity Employee: 1 object in the way (Z_PK 1)"))
        let clean = try Self.companies(owners: ["Employee", nil, nil])
        let allowed = try #require(try PersistentStore.migrationPlan(at: clean, model: ManagedObjectModel(model: Self.after, versions: [Self.before, Self.after])))
        #expect(allowed.description.contains("Company.owner: every object it links to is of entity Employee: no object in the way"))
    }
}
