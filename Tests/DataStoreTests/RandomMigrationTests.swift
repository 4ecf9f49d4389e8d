import DataModel
@testable import DataStore
import Foundation
import StoreMigration
import Testing
import TestSupport

/// Random pairs of model versions, built from the differ's kinds of change, over random data: each
/// round writes a store at the first version, opens it with the second, and compares the outcome
/// with what a model of the rules expects — the changes the data prevents, named exactly and with
/// the file left as it was, or every object read back with its converted values and its links.
///
/// 200 rounds by default; `DATASTORE_MIGRATION_ROUNDS=1000` is the full count, and
/// `DATASTORE_MIGRATION_SEED` replays a run.
@Suite struct RandomMigrationTests {
    static let rounds = ProcessInfo.processInfo.environment["DATASTORE_MIGRATION_ROUNDS"].flatMap(Int.init) ?? 200
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_MIGRATION_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    /// The changes a round may make, each on its own or with others.
    struct Changes: CustomStringConvertible {
        var addsOptional = false, addsDefaulted = false, addsRequired = false
        var removesNote = false, renamesNote = false
        var countType: AttributeType?, weightType: AttributeType?
        /// Count becomes required: with the default 5 (`true`), or without one.
        var countRequiredWithDefault: Bool?
        var labelUnique = false, narrowsOwner = false, petsToOne = false, petsOrdered = false

        static func random(_ random: inout SplitMix64) -> Changes {
            var changes = Changes()
            func maybe() -> Bool { Int.random(in: 0..<4, using: &random) == 0 }
            changes.addsOptional = maybe()
            changes.addsDefaulted = maybe()
            changes.addsRequired = Int.random(in: 0..<8, using: &random) == 0
            if maybe() { Bool.random(using: &random) ? (changes.removesNote = true) : (changes.renamesNote = true) }
            if maybe() {
                changes.countType = [.integer16, .integer64, .double, .decimal, .boolean].randomElement(using: &random)
            } else if maybe() {
                changes.countRequiredWithDefault = Bool.random(using: &random)
            }
            if maybe() { changes.weightType = [.integer64, .integer32, .float, .decimal].randomElement(using: &random) }
            changes.labelUnique = maybe()
            changes.narrowsOwner = maybe()
            if maybe() { Bool.random(using: &random) ? (changes.petsToOne = true) : (changes.petsOrdered = true) }
            return changes
        }

        var description: String {
            var parts: [String] = []
            if addsOptional { parts.append("extra added") }
            if addsDefaulted { parts.append("score added with a default") }
            if addsRequired { parts.append("code added, required") }
            if removesNote { parts.append("note removed") }
            if renamesNote { parts.append("note renamed") }
            if let countType { parts.append("count → \(countType.rawValue)") }
            if let defaulted = countRequiredWithDefault { parts.append("count required\(defaulted ? " with a default" : "")") }
            if let weightType { parts.append("weight → \(weightType.rawValue)") }
            if labelUnique { parts.append("label unique") }
            if narrowsOwner { parts.append("owner narrowed to Vip") }
            if petsToOne { parts.append("pets to-one") }
            if petsOrdered { parts.append("pets ordered") }
            return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
        }
    }

    // MARK: The two versions

    static func items(_ changes: Changes?) -> Entity {
        var count = Attribute("count", changes?.countType ?? .integer32, isOptional: true)
        if let defaulted = changes?.countRequiredWithDefault {
            count = Attribute("count", .integer32, defaultValue: defaulted ? "5" : nil)
        }
        var attributes = [
            Attribute("label", .string, isOptional: true), count,
            Attribute("weight", changes?.weightType ?? .double, isOptional: true), Attribute("flag", .boolean, isOptional: true),
        ]
        if changes?.removesNote != true {
            attributes.append(changes?.renamesNote == true ? Attribute("remark", .string, isOptional: true, elementID: "note") : Attribute("note", .string, isOptional: true))
        }
        if changes?.addsOptional == true { attributes.append(Attribute("extra", .string, isOptional: true)) }
        if changes?.addsDefaulted == true { attributes.append(Attribute("score", .integer64, defaultValue: "7")) }
        if changes?.addsRequired == true { attributes.append(Attribute("code", .string)) }
        return Entity("Item", attributes: attributes, relationships: [
            Relationship("owner", destination: changes?.narrowsOwner == true ? "Vip" : "Owner", isOptional: true),
            Relationship("keeper", destination: "Owner", inverseName: "pets", inverseEntityName: "Owner", isOptional: true),
        ], uniquenessConstraints: changes?.labelUnique == true ? [UniquenessConstraint(["label"])] : [])
    }

    static func version(_ name: String, _ changes: Changes?) -> Model {
        let pets = Relationship("pets", destination: "Item", inverseName: "keeper", inverseEntityName: "Item",
                                isToMany: changes?.petsToOne != true, isOrdered: changes?.petsOrdered == true, isOptional: true)
        return MigrationSupport.version(name, [
            items(changes),
            Entity("Owner", attributes: [Attribute("name", .string, isOptional: true)], relationships: [pets]),
            Entity("Vip", parentName: "Owner", attributes: [Attribute("level", .integer16, isOptional: true)]),
        ])
    }

    // MARK: The data

    struct StoredItem {
        var key: Int64
        var label: String?, count: Int64?, weight: Double?, flag: Bool?, note: String?
        var owner: Int64?, keeper: Int64?
    }

    struct StoredOwner {
        var key: Int64
        var isVip: Bool
    }

    /// Writes the first version's store with random owners and items; what it wrote.
    static func seed(_ random: inout SplitMix64, v1: Model) throws -> (url: URL, owners: [StoredOwner], items: [StoredItem]) {
        let ownerCount = Int.random(in: 0...3, using: &random)
        let vips = (0..<ownerCount).map { _ in Bool.random(using: &random) }
        let itemCount = Int.random(in: 0...6, using: &random)
        func rare<T>(_ common: [T], _ risky: [T]) -> T {
            Int.random(in: 0..<6, using: &random) == 0 ? risky.randomElement(using: &random)! : common.randomElement(using: &random)!
        }
        var items = (0..<itemCount).map { _ in
            StoredItem(
                key: 0, label: rare(["a", "b", "c", "d", "e", nil], ["a"]), count: rare([0, 1, nil, 1, 0], [2, -5, 40_000, nil]),
                weight: rare([0, 1, nil, -3], [2.5, 1e39]), flag: [true, false, nil].randomElement(using: &random)!,
                note: ["n1", "n2", nil].randomElement(using: &random)!,
                owner: ownerCount == 0 || Bool.random(using: &random) ? nil : Int64(Int.random(in: 0..<ownerCount, using: &random)),
                keeper: ownerCount == 0 || Int.random(in: 0..<3, using: &random) == 0 ? nil : Int64(Int.random(in: 0..<ownerCount, using: &random)))
        }
        var owners: [StoredOwner] = []
        let url = try MigrationSupport.store(v1) { context in
            let ownerObjects = try vips.map { try context.insertObject(entityName: $0 ? "Vip" : "Owner") }
            let itemObjects = try items.map { item in
                let object = try context.insertObject(entityName: "Item")
                try object.setValue(item.label, forKey: "label")
                try object.setValue(item.count, forKey: "count")
                try object.setValue(item.weight, forKey: "weight")
                try object.setValue(item.flag, forKey: "flag")
                try object.setValue(item.note, forKey: "note")
                try object.setValue(item.owner.map { ownerObjects[Int($0)] }, forKey: "owner")
                try object.setValue(item.keeper.map { ownerObjects[Int($0)] }, forKey: "keeper")
                return object
            }
            try context.save()
            // Positions become the keys the save gave.
            let ownerKeys = ownerObjects.map { $0.objectID.primaryKey ?? 0 }
            owners = zip(ownerKeys, vips).map { StoredOwner(key: $0, isVip: $1) }
            for index in items.indices {
                items[index].key = itemObjects[index].objectID.primaryKey ?? 0
                items[index].owner = items[index].owner.map { ownerKeys[Int($0)] }
                items[index].keeper = items[index].keeper.map { ownerKeys[Int($0)] }
            }
        }
        return (url, owners, items)
    }

    // MARK: The rules

    /// The subjects of the changes the data prevents.
    static func blocked(_ changes: Changes, owners: [StoredOwner], items: [StoredItem]) -> Set<String> {
        var blocked: Set<String> = []
        if changes.addsRequired, !items.isEmpty { blocked.insert("Item.code") }
        if let type = changes.countType, items.contains(where: { item in item.count.map { converted(Double($0), to: type) == nil } ?? false }) {
            blocked.insert("Item.count")
        }
        if changes.countRequiredWithDefault == false, items.contains(where: { $0.count == nil }) { blocked.insert("Item.count") }
        if let type = changes.weightType, items.contains(where: { item in item.weight.map { converted($0, to: type) == nil } ?? false }) {
            blocked.insert("Item.weight")
        }
        let labels = items.compactMap(\.label)
        if changes.labelUnique, Set(labels).count < labels.count { blocked.insert("Item") }
        let vips = Set(owners.filter(\.isVip).map(\.key))
        if changes.narrowsOwner, items.contains(where: { $0.owner.map { !vips.contains($0) } ?? false }) { blocked.insert("Item.owner") }
        if changes.petsToOne, Dictionary(grouping: items.compactMap(\.keeper), by: { $0 }).values.contains(where: { $0.count > 1 }) {
            blocked.insert("Owner.pets")
        }
        return blocked
    }

    /// `number` as an attribute of `type` holds it; `nil` when it cannot hold it exactly.
    static func converted(_ number: Double, to type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            let range: ClosedRange<Double> = type == .integer16 ? -32_768...32_767 : type == .integer32 ? -2_147_483_648...2_147_483_647
                : -9_223_372_036_854_775_808...9_223_372_036_854_774_784
            return number.rounded() == number && range.contains(number) ? .integer(Int64(number)) : nil
        case .boolean: return number == 0 || number == 1 ? .bool(number == 1) : nil
        case .float: return abs(number) <= Double(Float.greatestFiniteMagnitude) ? .double(number) : nil
        case .double: return .double(number)
        case .decimal: return .decimal(Decimal(string: String(number))!)
        default: return nil
        }
    }

    /// Each item's values after the migration, by attribute name.
    static func expectedValues(of item: StoredItem, _ changes: Changes) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [
            "label": item.label.map(AttributeValue.string) ?? .null,
            "flag": item.flag.map(AttributeValue.bool) ?? .null,
        ]
        if let count = item.count {
            values["count"] = changes.countType.map { converted(Double(count), to: $0)! } ?? .integer(count)
        } else {
            values["count"] = changes.countRequiredWithDefault == true ? .integer(5) : .null
        }
        values["weight"] = item.weight.map { weight in changes.weightType.map { converted(weight, to: $0)! } ?? .double(weight) } ?? .null
        if !changes.removesNote { values[changes.renamesNote ? "remark" : "note"] = item.note.map(AttributeValue.string) ?? .null }
        if changes.addsOptional { values["extra"] = .null }
        if changes.addsDefaulted { values["score"] = .integer(7) }
        return values
    }

    // MARK: The rounds

    @Test func randomVersionPairs_migrateAsTheRulesSay() throws {
        var random = SplitMix64(seed: Self.seed)
        let v1 = Self.version("V1", nil)
        var migrated = 0
        for round in 0..<Self.rounds {
            let changes = Changes.random(&random)
            let v2 = Self.version("V2", changes)
            let (url, owners, items) = try Self.seed(&random, v1: v1)
            let label = "round \(round) (\(changes)), seed \(Self.seed)"
            let blocked = Self.blocked(changes, owners: owners, items: items)
            let bytes = try MigrationSupport.pages(url)
            let store: PersistentStore
            do {
                store = try MigrationSupport.open(url, v2, versions: [v1, v2])
            } catch StoreError.migration(.dataPreventsMigration(let found)) {
                #expect(Set(found.map(\.change.subject)) == blocked, "\(label)")
                #expect(try MigrationSupport.pages(url) == bytes, "\(label): the file changed")
                continue
            }
            #expect(blocked.isEmpty, "\(label): migrated, though \(blocked.sorted()) should have stopped it")
            guard blocked.isEmpty else { continue }
            migrated += 1
            try Self.compare(store, with: items, changes, label)
            #expect(try MigrationSupport.integrity(url) == "ok", "\(label)")
        }
        #expect(migrated > Self.rounds / 4, "most rounds should migrate; \(migrated) of \(Self.rounds) did")
    }

    static func compare(_ store: PersistentStore, with items: [StoredItem], _ changes: Changes, _ label: String) throws {
        let context = store.newContext()
        let found = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { ($0.objectID.primaryKey ?? 0, $0) })
        #expect(found.count == items.count, "\(label)")
        for item in items {
            guard let object = found[item.key] else {
                Issue.record("\(label): item \(item.key) is gone")
                continue
            }
            for (name, value) in expectedValues(of: item, changes) {
                #expect(try object.attributeValue(forKey: name) == value, "\(label): item \(item.key).\(name)")
            }
            #expect((object.value(forKey: "owner") as? ManagedObject)?.objectID.primaryKey == item.owner, "\(label): item \(item.key).owner")
            #expect((object.value(forKey: "keeper") as? ManagedObject)?.objectID.primaryKey == item.keeper, "\(label): item \(item.key).keeper")
        }
        for owner in try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner")) {
            let key = owner.objectID.primaryKey ?? 0
            let pets = items.filter { $0.keeper == key }.map(\.key).sorted()
            let linked: [Int64] = switch owner.value(forKey: "pets") {
            case let object as ManagedObject: [object.objectID.primaryKey ?? 0]
            case let ordered as [ManagedObject]: ordered.map { $0.objectID.primaryKey ?? 0 }
            case let set as Set<ManagedObject>: set.map { $0.objectID.primaryKey ?? 0 }.sorted()
            default: []
            }
            #expect(linked == pets, "\(label): owner \(key).pets")
        }
    }
}
