import DataModel
@testable import DataStore
import Foundation
import Testing
import TestSupport

/// CareKit's 2.0 → 2.1 mapping model (BSD-3-Clause, © Apple) run with a port of its policy,
/// `OCKStoreMigration2_0To2_1Policy`, on a store shaped as CareKit writes one: a patient and a
/// care plan, contacts chained by `previous`/`next`, tasks with schedules, and outcomes that name
/// an occurrence of their task's schedule. The app's code is not copied; the port follows what the
/// policy does, as described in the corpus folder's README.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct CareKitMappingMigrationTests {
    static let folder = "CareKit__2.0_2.1_Mapping"

    /// What the port needs from outside the store, fixed for the test: CareKit reads the device's
    /// calendar and makes random UUIDs.
    final class Environment: Sendable {
        let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            return calendar
        }()
        private let made = Locked(0)

        /// `00000000-0000-0000-0000-000000000001`, then …02: one per call.
        func newUUID() -> UUID {
            let number = made.withLock { count in
                count += 1
                return count
            }
            return UUID(uuidString: "00000000-0000-0000-0000-" + String(String(number).reversed()).padding(toLength: 12, withPad: "0", startingAt: 0).reversed())!
        }
    }

    /// The policy, for the outcome, care plan, task, contact and patient mappings.
    struct Policy: MigrationPolicy {
        let environment: Environment

        /// A new object of the source's entity with every attribute the source has, except the
        /// removed `allowsMissingRelationships`; `schemaVersion` 2.1.0; a new `uuid`; an outcome's
        /// removed `date` becomes the start, end and effective date of the occurrence of its
        /// task's schedule it names. Tags, a transformable list in 2.0 and a relationship in 2.1,
        /// are refused: the app's policy writes the list over the relationship, which Core Data
        /// refuses (no store the app's tests migrate has tags).
        func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            let made = try manager.destinationContext.insertObject(entityName: source.entity.name)
            manager.associate(source: source, destination: made, mapping: mapping)
            for attribute in source.entity.attributes {
                let value = source.value(forKey: attribute.name)
                switch attribute.name {
                case "allowsMissingRelationships":
                    continue
                case "tags":
                    guard value == nil else { throw MigrationError.custom(message: "\(mapping.name): tags cannot be set as a list on a relationship") }
                case "schemaVersion":
                    try made.setValue("2.1.0", forKey: "schemaVersion")
                case "date" where source.entity.name == "OCKCDOutcome":
                    let occurrence = try occurrence(of: source)
                    try made.setValue(occurrence.start, forKey: "startDate")
                    try made.setValue(occurrence.start, forKey: "effectiveDate")
                    try made.setValue(occurrence.end, forKey: "endDate")
                    try made.setValue(nil, forKey: "deletedDate")
                default:
                    try made.setValue(value, forKey: attribute.name)
                }
            }
            try made.setValue(environment.newUUID(), forKey: "uuid")
        }

        /// The store's one clock (made on first use), a knowledge element of it for the object,
        /// each relationship the source has a value for linked to what the entity's own mapping
        /// made from it, and an outcome's `id` from its task's new UUID and its occurrence.
        func createRelationships(for destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            guard let source = manager.sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destination]).first else { return }
            let context = manager.destinationContext
            var clocks = FetchRequest<ManagedObject>(entityName: "OCKCDClock")
            clocks.fetchLimit = 1
            let clock: ManagedObject
            if let existing = try context.fetch(clocks).first {
                clock = existing
            } else {
                clock = try context.insertObject(entityName: "OCKCDClock")
                let uuid = environment.newUUID()
                try clock.setValue(uuid, forKey: "uuid")
                // The app archives `[uuid: 1]`; the test writes it as JSON.
                try clock.setValue(try JSONEncoder().encode([uuid.uuidString: 1]), forKey: "vectorClock")
            }
            let knowledge = try context.insertObject(entityName: "OCKCDKnowledgeElement")
            try knowledge.setValue(Int64(1), forKey: "time")
            try knowledge.setValue(clock.value(forKey: "uuid"), forKey: "uuid")
            try destination.setValue([knowledge], forKey: "knowledge")
            for relationship in source.entity.relationships {
                guard let value = source.value(forKey: relationship.name) else { continue }
                let name = "\(relationship.destinationEntityName)To\(relationship.destinationEntityName)"
                let linked = manager.destinationInstances(forEntityMappingNamed: name, sourceInstances: MigrationManager.objects(in: value))
                if relationship.isToMany || ["next", "previous"].contains(relationship.name) {
                    try destination.setValue(linked, forKey: relationship.name)
                } else {
                    guard let first = linked.first else { throw MigrationError.custom(message: "\(mapping.name): \(relationship.name) leads nowhere") }
                    try destination.setValue(first, forKey: relationship.name)
                }
            }
            if source.entity.name == "OCKCDOutcome" {
                guard let task = destination.value(forKey: "task") as? ManagedObject, let uuid = task.value(forKey: "uuid") as? UUID,
                      let index = source.value(forKey: "taskOccurrenceIndex") as? Int64
                else { throw MigrationError.custom(message: "an outcome without task") }
                try destination.setValue("\(uuid.uuidString.uppercased())_\(index)", forKey: "id")
            }
        }

        /// The occurrence an outcome names: its task's schedule elements in order of start, each
        /// stepping from its start by its interval (calendar arithmetic, step after step) until
        /// its end, every event merged in order of start, and the one at `taskOccurrenceIndex`.
        func occurrence(of outcome: ManagedObject) throws -> (start: Date, end: Date) {
            guard let task = outcome.value(forKey: "task") as? ManagedObject, let index = outcome.value(forKey: "taskOccurrenceIndex") as? Int64 else {
                throw MigrationError.custom(message: "an outcome without task")
            }
            let elements = MigrationManager.objects(in: task.value(forKey: "scheduleElements"))
                .sorted { ($0.value(forKey: "startDate") as! Date) < ($1.value(forKey: "startDate") as! Date) }
            var events: [(start: Date, end: Date)] = []
            for element in elements {
                func number(_ key: String) -> Int { Int(element.value(forKey: key) as? Int64 ?? 0) }
                let interval = DateComponents(
                    year: number("yearsInterval"), month: number("monthsInterval"), day: number("daysInterval"), hour: number("hoursInterval"),
                    minute: number("minutesInterval"), second: number("secondsInterval"), weekOfYear: number("weeksInterval"))
                let duration = element.value(forKey: "durationInSeconds") as? Double ?? 0
                let end = element.value(forKey: "endDate") as? Date
                var start = element.value(forKey: "startDate") as! Date
                for _ in 0...index {
                    if let end, start >= end { break }
                    events.append((start, start.addingTimeInterval(duration)))
                    guard let next = environment.calendar.date(byAdding: interval, to: start), next > start else {
                        throw MigrationError.custom(message: "a schedule whose interval does not move forward")
                    }
                    start = next
                }
            }
            let ordered = events.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
            guard Int(index) < ordered.count else { throw MigrationError.custom(message: "occurrence \(index) is past the schedule") }
            return ordered[Int(index)]
        }
    }

    /// 2020-03-01 09:00 in Los Angeles, and dates counted from it.
    static let start = Date(timeIntervalSinceReferenceDate: 604_774_800)
    static func day(_ days: Double, hours: Double = 0) -> Date { start.addingTimeInterval(days * 86_400 + hours * 3_600) }

    @Test func careKit_migratesWithAPortOfItsPolicy() throws {
        let (mapping, source, destination) = try CorpusMappingMigrationTests.load(Self.folder)
        let environment = Environment()
        // The outcomes: (task, occurrence, the date CareKit 2.0 stored for it).
        let outcomes: [(task: Int, index: Int64, date: Date)] = [
            (0, 0, Self.start), (0, 5, Self.day(5)),
            // The second task's schedules merged: weekly from day 1, every other day from day 2 until day 7.
            (1, 3, Self.day(6, hours: 1)),
        ]
        let url = try MigrationSupport.store(source) { context in
            func make(_ entity: String, _ values: [String: Any?]) throws -> ManagedObject {
                let object = try context.insertObject(entityName: entity)
                for (key, value) in values { try object.setValue(value, forKey: key) }
                return object
            }
            func versioned(_ id: String, _ values: [String: Any?] = [:]) -> [String: Any?] {
                values.merging(["id": id, "createdDate": Self.start, "effectiveDate": Self.start, "schemaVersion": "2.0.1",
                                "timezoneIdentifier": "America/Los_Angeles"]) { mine, _ in mine }
            }
            let patient = try make("OCKCDPatient", versioned("patient", ["name": try make("OCKCDPersonName", ["givenName": "Ada"])]))
            let plan = try make("OCKCDCarePlan", versioned("plan", ["title": "Recovery", "patient": patient]))
            let first = try make("OCKCDContact", versioned("doctor", ["name": try make("OCKCDPersonName", ["givenName": "Grace"]), "carePlan": plan]))
            _ = try make("OCKCDContact", versioned("doctor", ["name": try make("OCKCDPersonName", ["givenName": "Grace"]), "previous": first]))
            func element(_ start: Date, end: Date? = nil, days: Int64 = 0, weeks: Int64 = 0) throws -> ManagedObject {
                try make("OCKCDScheduleElement", [
                    "startDate": start, "endDate": end, "daysInterval": days, "weeksInterval": weeks, "durationInSeconds": 1_800.0,
                    "createdDate": Self.start, "schemaVersion": "2.0.1", "timezoneIdentifier": "America/Los_Angeles",
                ])
            }
            let tasks = [
                try make("OCKCDTask", versioned("walk", ["carePlan": plan, "scheduleElements": [try element(Self.start, days: 1)]])),
                try make("OCKCDTask", versioned("stretch", ["scheduleElements": [
                    try element(Self.day(2, hours: 1), end: Self.day(7), days: 2), try element(Self.day(1, hours: 1), weeks: 1),
                ]])),
            ]
            for outcome in outcomes {
                let made = try make("OCKCDOutcome", [
                    "task": tasks[outcome.task], "taskOccurrenceIndex": outcome.index, "date": outcome.date, "createdDate": Self.start,
                    "schemaVersion": "2.0.1", "timezoneIdentifier": "America/Los_Angeles",
                ])
                _ = try make("OCKCDOutcomeValue", [
                    "outcome": made, "typeString": "integer", "integerValue": Int64(7), "createdDate": Self.start, "schemaVersion": "2.0.1",
                    "timezoneIdentifier": "America/Los_Angeles",
                ])
            }
        }
        let policy = "CareKitStore.OCKStoreMigration2_0To2_1Policy"
        let store = try MigrationSupport.open(url, destination, versions: [source, destination], migration: MigrationOptions(
            mappingModels: [mapping], migrationPolicies: [policy: { Policy(environment: environment) }]))
        let context = store.newContext()
        func all(_ entity: String) throws -> [ManagedObject] { try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) }

        // Every object the policy made has a version, a UUID of its own and one knowledge element of the one clock.
        let clocks = try all("OCKCDClock")
        #expect(clocks.count == 1)
        let made = try ["OCKCDPatient", "OCKCDCarePlan", "OCKCDContact", "OCKCDTaskBase", "OCKCDOutcome"].flatMap(all)
        #expect(made.count == 1 + 1 + 2 + 2 + 3)
        #expect(Set(made.compactMap { $0.value(forKey: "uuid") as? UUID }).count == made.count)
        #expect(made.allSatisfy { $0.value(forKey: "schemaVersion") as? String == "2.1.0" })
        for object in made {
            let knowledge = MigrationManager.objects(in: object.value(forKey: "knowledge"))
            #expect(knowledge.count == 1 && knowledge[0].value(forKey: "uuid") as? UUID == clocks[0].value(forKey: "uuid") as? UUID)
        }
        // Tasks are tasks of the new hierarchy; the contacts' chain became to-many both ways.
        #expect(try all("OCKCDTask").count == 2)
        let contacts = try all("OCKCDContact")
        let second = try #require(contacts.first { !MigrationManager.objects(in: $0.value(forKey: "previous")).isEmpty })
        #expect(MigrationManager.objects(in: second.value(forKey: "previous")).first.map { MigrationManager.objects(in: $0.value(forKey: "next")) }?.first === second)
        // Each outcome's occurrence is where its 2.0 date was; its id names its task's new UUID.
        let migrated = try all("OCKCDOutcome")
        for outcome in outcomes {
            let matching = migrated.filter { $0.value(forKey: "startDate") as? Date == outcome.date && $0.value(forKey: "taskOccurrenceIndex") as? Int64 == outcome.index }
            #expect(matching.count == 1, "occurrence \(outcome.index) of task \(outcome.task)")
            guard let found = matching.first else { continue }
            #expect(found.value(forKey: "effectiveDate") as? Date == outcome.date)
            #expect(found.value(forKey: "endDate") as? Date == outcome.date.addingTimeInterval(1_800))
            let task = try #require(found.value(forKey: "task") as? ManagedObject)
            #expect(found.value(forKey: "id") as? String == "\((task.value(forKey: "uuid") as! UUID).uuidString.uppercased())_\(outcome.index)")
            #expect(MigrationManager.objects(in: found.value(forKey: "values")).map { $0.value(forKey: "integerValue") as? Int64 } == [7])
        }
    }
}
