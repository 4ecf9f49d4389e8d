import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDB
import Testing
import TestSupport

/// Stores written by Apple's Core Data (`../shared/corpus/stores` and `../shared/stores-incoming`,
/// frameworks 419 to 1347), opened as copies through dynamic objects: every object reads with the
/// values the store holds, predicates count what SQL counts, and writing keeps Core Data's layout.
@Suite(.enabled(if: CorpusStore.isAvailable, "../shared/corpus is absent; Core Data store tests need it beside the repository"))
struct CoreDataStoreReadingTests {
    static func stores() -> [String] {
        CorpusStore.names()
    }

    /// The stores whose model is the one that wrote them, which open for writing; the Recipes
    /// sample's was written by another edit of its model (`ModelVersionHashTests`).
    static func writableStores() -> [String] {
        stores().filter { $0 != "AppleSample-iPhoneCoreDataRecipes__Recipes" }
    }

    /// A copy of the store file and the model version that wrote it.
    static func open(_ name: String) throws -> (url: URL, model: Model) {
        let store = CorpusStore(name)
        return (try store.copyOfStoreFile(), try store.model())
    }

    /// The store opened read-only on a copy, and a plain SQLite queue on the same copy.
    static func openReadOnly(_ name: String) throws -> (store: PersistentStore, raw: DatabaseQueue) {
        let (url, model) = try open(name)
        return (try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: model)), try DatabaseQueue(path: url.path))
    }

    @Test(arguments: stores())
    func everyObject_readsWithTheStoresValues(store name: String) throws {
        let (store, raw) = try Self.openReadOnly(name)
        let context = store.newContext()
        var total = 0
        for entity in store.entities {
            var request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let objects = try context.fetch(request)
            let rows = try raw.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM \(entity.tableName) WHERE Z_ENT = ? ORDER BY Z_PK", arguments: [entity.number])
            }
            #expect(objects.count == rows.count, "\(entity.name)")
            total += objects.count
            for (object, row) in zip(objects, rows) {
                #expect(object.objectID.primaryKey == row["Z_PK"])
                #expect(object.entity === entity)
                for attribute in entity.attributes {
                    let value = try object.attributeValue(forKey: attribute.name)
                    guard let column = attribute.columnName, let stored = row[column] as DatabaseValue? else { continue }
                    #expect(value.isNull == stored.isNull, "\(entity.name).\(attribute.name)")
                    switch (attribute.type, value) {
                    case (.date, .date(let date)):
                        #expect(date.timeIntervalSinceReferenceDate == Double.fromDatabaseValue(stored))
                    case (.uuid, .uuid(let uuid)):
                        #expect(withUnsafeBytes(of: uuid.uuid) { Data($0) } == Data.fromDatabaseValue(stored))
                    case (.string, .string(let text)):
                        #expect(text == String.fromDatabaseValue(stored))
                    case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
                        #expect(number == Int64.fromDatabaseValue(stored))
                    case (.double, .double(let number)), (.float, .double(let number)):
                        #expect(number == Double.fromDatabaseValue(stored))
                    case (.decimal, .decimal(let number)):
                        // NUMERIC affinity keeps integral values as INTEGER, others as REAL; not-a-number is the text NaN.
                        if case .string(let text) = stored.storage {
                            #expect(text == "NaN" && number.isNaN, "\(entity.name).\(attribute.name)")
                        } else {
                            #expect(NSDecimalNumber(decimal: number).doubleValue == Double.fromDatabaseValue(stored), "\(entity.name).\(attribute.name)")
                        }
                    case (.boolean, .bool(let flag)):
                        #expect(flag == ((Int64.fromDatabaseValue(stored) ?? 0) != 0))
                    case (.binary, .data(let bytes)), (.transformable, .data(let bytes)):
                        #expect(bytes == Data.fromDatabaseValue(stored))
                    case (.uri, .url(let url)):
                        #expect(url.absoluteString == String.fromDatabaseValue(stored))
                    case (_, .null):
                        break  // already checked: the store holds NULL too
                    default:
                        Issue.record("\(entity.name).\(attribute.name): \(value) read for a stored \(stored) of type \(attribute.type)")
                    }
                }
                for relationship in entity.relationships {
                    let destination = try #require(store.entity(named: relationship.destinationEntityName))
                    if relationship.isToOne {
                        if let target = object.value(forKey: relationship.name) as? ManagedObject {
                            #expect(target.entity.isKind(of: destination), "\(entity.name).\(relationship.name)")
                        }
                    } else {
                        let targets: [ManagedObject] = relationship.isOrdered
                            ? object.value(forKey: relationship.name) as? [ManagedObject] ?? []
                            : Array(object.value(forKey: relationship.name) as? Set<ManagedObject> ?? [])
                        #expect(targets.allSatisfy { $0.entity.isKind(of: destination) }, "\(entity.name).\(relationship.name)")
                        // The inverse points back.
                        if let inverse = relationship.inverseName, let target = targets.first {
                            let back = target.value(forKey: inverse)
                            let pointsBack = (back as? ManagedObject) === object || (back as? Set<ManagedObject>)?.contains(object) == true
                                || (back as? [ManagedObject])?.contains(object) == true
                            #expect(pointsBack, "\(entity.name).\(relationship.name) ↔ \(inverse)")
                        }
                    }
                }
            }
        }
        let expected = try raw.read { db in
            try store.model.schema.tables.reduce(0) { sum, table in
                sum + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.name)") ?? 0)
            }
        }
        #expect(total == expected)
    }

    /// Predicates over every stored attribute count what plain SQL counts: `!= nil` for every
    /// attribute, and an order comparison with one of the stored values for numbers, dates and text.
    @Test(arguments: stores())
    func predicates_countWhatSQLCounts(store name: String) throws {
        let (store, raw) = try Self.openReadOnly(name)
        let context = store.newContext()
        var compared = 0
        for entity in store.entities {
            let members = entity.subtreeNumbers.map(String.init).joined(separator: ", ")
            for attribute in entity.attributes {
                guard let column = attribute.columnName else { continue }
                func sqlCount(_ condition: String, _ arguments: StatementArguments = []) throws -> Int {
                    try raw.read { db in
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(entity.tableName) WHERE Z_ENT IN (\(members)) AND \(condition)", arguments: arguments) ?? 0
                    }
                }
                func count(_ format: String, _ arguments: [any PredicateArgument] = []) throws -> Int {
                    try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name, predicate: ObjectPredicate(format: format, arguments: arguments)))
                }
                #expect(try count("%K != nil", [attribute.name]) == sqlCount("\(column) IS NOT NULL"), "\(name): \(entity.name).\(attribute.name)")
                let sample = try raw.read { db in
                    try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM \(entity.tableName) WHERE Z_ENT IN (\(members)) AND \(column) IS NOT NULL ORDER BY Z_PK LIMIT 1")
                }
                guard let sample else { continue }
                switch attribute.type {
                case .integer16, .integer32, .integer64:
                    let value = try #require(Int64.fromDatabaseValue(sample))
                    #expect(try count("%K > %@", [attribute.name, value]) == sqlCount("\(column) > ?", [value]), "\(name): \(entity.name).\(attribute.name)")
                case .double, .float:
                    let value = try #require(Double.fromDatabaseValue(sample))
                    #expect(try count("%K <= %@", [attribute.name, value]) == sqlCount("\(column) <= ?", [value]), "\(name): \(entity.name).\(attribute.name)")
                case .date:
                    let seconds = try #require(Double.fromDatabaseValue(sample))
                    let date = Date(timeIntervalSinceReferenceDate: seconds)
                    #expect(try count("%K < %@", [attribute.name, date]) == sqlCount("\(column) < ?", [seconds]), "\(name): \(entity.name).\(attribute.name)")
                case .string:
                    let text = try #require(String.fromDatabaseValue(sample))
                    #expect(try count("%K >= %@", [attribute.name, text]) == sqlCount("\(column) >= ?", [text]), "\(name): \(entity.name).\(attribute.name)")
                default:
                    continue
                }
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    @Test(arguments: writableStores())
    func writingToACopy_keepsTheLayoutAndPrimaryKeys(store name: String) throws {
        let (url, model) = try Self.open(name)
        let raw = try DatabaseQueue(path: url.path)
        let schemaBefore = try raw.read { db in try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") }
        try raw.close()
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: model))
        let context = store.newContext()
        var inserted: [ManagedObject] = []
        for entity in store.entities where !entity.isAbstract {
            let object = try context.insertObject(entityName: entity.name)
            for attribute in entity.attributes where !attribute.isOptional {
                if try object.attributeValue(forKey: attribute.name).isNull {
                    try object.setAttributeValue(Self.sample(for: attribute.type), forKey: attribute.name)
                }
            }
            inserted.append(object)
        }
        // Give each required relationship a partner among the new objects.
        for object in inserted {
            for relationship in object.entity.relationships where !relationship.isOptional {
                guard let destination = store.entity(named: relationship.destinationEntityName),
                      let partner = inserted.first(where: { $0.entity.isKind(of: destination) })
                else { continue }
                if relationship.isToOne, object.value(forKey: relationship.name) == nil {
                    try object.setValue(partner, forKey: relationship.name)
                } else if relationship.isToMany {
                    try object.setValue([partner], forKey: relationship.name)
                }
            }
        }
        try context.save()
        let check = try DatabaseQueue(path: url.path)
        try check.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") == schemaBefore)
            for table in store.model.schema.tables {
                let root = try #require(store.entity(named: table.rootEntity))
                let maximum = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table.name)") ?? 0
                let recorded = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root.number]) ?? 0
                #expect(recorded >= maximum, "\(table.name): Z_MAX \(recorded) below MAX(Z_PK) \(maximum)")
            }
        }
        for object in inserted {
            #expect(!object.objectID.isTemporaryID)
            #expect(try store.newContext().existingObject(with: object.objectID).entity.name == object.entity.name)
        }
    }

    /// A store written by another version of the model opens read-only, with the differing
    /// entities named, and not for writing; a model needing what the store lacks is a typed error.
    @Test func anotherModelVersion_readsOnlyWhatTheStoreHas() throws {
        let (url, model) = try Self.open("AppleSample-iPhoneCoreDataRecipes__Recipes")
        #expect(throws: StoreError.modelMismatch(entities: ["Image", "Ingredient", "Recipe"])) {
            try PersistentStore(url: url, model: ManagedObjectModel(model: model))
        }
        #expect(try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: model)).differingEntities == ["Image", "Ingredient", "Recipe"])

        var withNewAttribute = model
        let recipe = try #require(model.entities.firstIndex { $0.name == "Recipe" })
        withNewAttribute.entities[recipe].attributes.append(Attribute(name: "servings", type: .integer16, isOptional: true, location: SourceLocation(file: "test")))
        #expect(throws: StoreError.missingColumn(table: "ZRECIPE", column: "ZSERVINGS")) {
            try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: withNewAttribute))
        }
        var withNewEntity = model
        withNewEntity.entities.append(Entity(name: "Author", location: SourceLocation(file: "test")))  // numbered 1: every entity after it moves
        #expect(throws: StoreError.modelMismatch(entities: ["Author", "Image", "Ingredient", "Recipe"])) {
            try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: withNewEntity))
        }
    }

    static func sample(for type: AttributeType) -> AttributeValue {
        switch type {
        case .integer16, .integer32, .integer64: .integer(1)
        case .double, .float: .double(1)
        case .decimal: .decimal(1)
        case .boolean: .bool(true)
        case .string: .string(UUID().uuidString)
        case .date: .date(Date())
        case .binary, .transformable: .data(Data([1]))
        case .uuid: .uuid(UUID())
        case .uri: .url(URL(string: "https://example.org")!)
        case .objectID, .composite, .undefined: .null
        }
    }
}
