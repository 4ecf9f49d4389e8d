import DataStore
import Foundation
import GRDB
import Library
import Testing

/// Composite attributes at run time (the Everything model's `Book.shelfSpot`, a `ShelfSpot` of
/// `position` (a `Coordinates` of `x`, `y`), `room` and `row`): one value of named members, stored
/// one column per leaf, reached by key paths in predicates and sort descriptors.
@Suite struct CompositeAttributeTests {
    static var spot: [String: Any] { ["room": "Attic", "row": 3, "position": ["x": 1.5, "y": -2.0]] }

    private func book(_ context: ObjectContext, _ title: String, spot: [String: Any]?) throws -> ManagedObject {
        let book = try context.insertObject(entityName: "Book")
        try book.setValue(title, forKey: "title")
        try book.setValue(spot, forKey: "shelfSpot")
        return book
    }

    @Test func values_roundTripThroughTheLeafColumns() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library)
        let context = store.newContext()
        let book = try book(context, "Emma", spot: Self.spot)
        #expect(try book.attributeValue(forKey: "shelfSpot") == .composite([
            "room": .string("Attic"), "row": .integer(3),
            "position": .composite(["x": .double(1.5), "y": .double(-2)]),
        ]))
        _ = try self.book(context, "Persuasion", spot: nil)
        try context.save()

        try DatabaseQueue(path: url.path).read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT ZROOM, ZROW, ZX, ZY
                FROM ZITEM WHERE ZTITLE = 'Emma'
                """))
            #expect(row[0] as String? == "Attic")
            #expect(row[1] as Int? == 3)
            #expect(row[2] as Double? == 1.5)
            #expect(row[3] as Double? == -2)
            let empty = try Row.fetchOne(db, sql: "SELECT ZROOM, ZROW FROM ZITEM WHERE ZTITLE = 'Persuasion'")
            #expect(empty?[0] as String? == nil)
            #expect(empty?[1] as Int? == nil)
        }

        let fresh = store.newContext()
        let books = try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Book", sortDescriptors: [.init("title")]))
        let spot = try #require(books.first?.value(forKey: "shelfSpot") as? [String: Any])
        #expect(spot["room"] as? String == "Attic")
        #expect(spot["row"] as? Int64 == 3)
        #expect((spot["position"] as? [String: Any])?["y"] as? Double == -2)
        #expect(try books[1].attributeValue(forKey: "shelfSpot") == .null, "an optional composite with no leaf values has none")
    }

    @Test func changingOneMember_updatesItsColumn_andNilClearsThemAll() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library)
        let context = store.newContext()
        let book = try book(context, "Emma", spot: Self.spot)
        try context.save()

        var changed = Self.spot
        changed["room"] = "Cellar"
        changed["position"] = nil
        try book.setValue(changed, forKey: "shelfSpot")
        try context.save()
        let reread = try #require(try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
        #expect(try reread.attributeValue(forKey: "shelfSpot") == .composite(["room": .string("Cellar"), "row": .integer(3)]),
                "a nested optional composite whose leaves are all missing reads as absent")

        try book.setValue(nil, forKey: "shelfSpot")
        try context.save()
        try DatabaseQueue(path: url.path).read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ZROOM, ZROW, ZX FROM ZITEM"))
            #expect(row[0] as String? == nil && row[1] as Int? == nil && row[2] as Double? == nil)
        }
    }

    @Test(arguments: TestedEngine.available) func members_convertAndUnknownMembersAreRefused(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = try book(context, "Emma", spot: ["room": "Attic", "row": 2.0, "position": ["x": 1, "y": 2]])
            #expect(try book.attributeValue(forKey: "shelfSpot").member(at: ["position", "x"]) == .double(1), "integers convert to Double members")
            #expect(try book.attributeValue(forKey: "shelfSpot").member(at: ["row"]) == .integer(2))
            #expect(throws: ContextError.self) { try book.setValue(["floor": 2], forKey: "shelfSpot") }
            #expect(throws: ContextError.self) { try book.setValue(["row": "high"], forKey: "shelfSpot") }
            #expect(throws: ContextError.self) { try book.setValue("Attic", forKey: "shelfSpot") }
            #expect(try book.attributeValue(forKey: "shelfSpot").member(at: ["room"]) == .string("Attic"), "a refused value changes nothing")
        }
    }

    @Test(arguments: TestedEngine.available) func requiredMembers_areValidatedWhenTheCompositeIsPresent(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            _ = try book(context, "Emma", spot: ["room": "Attic"])
            let error = try #require(throws: SaveError.self) { try context.save() }
            #expect("\(error)".contains("shelfSpot.row"), "names the member: \(error)")
            context.rollback()
            _ = try book(context, "Emma", spot: ["row": 1])
            try context.save()
        }
    }

    @Test(arguments: TestedEngine.available) func predicatesAndSorts_reachMembers_inSQLAndInMemory(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let spots: [(String, [String: Any]?)] = [
                ("A", ["room": "Attic", "row": 1, "position": ["x": 3.0, "y": 0.0]]),
                ("B", ["room": "Cellar", "row": 5]),
                ("C", ["room": "Attic", "row": 4, "position": ["x": -1.0, "y": 2.0]]),
                ("D", nil),
            ]
            for (title, spot) in spots { _ = try book(context, title, spot: spot) }
            try context.save()
            // Unsaved: only a fetch that includes pending changes (evaluated in memory) sees it.
            let pending = try book(context, "E", spot: ["room": "Attic", "row": 9, "position": ["x": 7.0, "y": 7.0]])

            func titles(_ format: String, _ arguments: [any PredicateArgument] = [], sort: [ObjectSortDescriptor] = [.init("title")]) throws -> [String] {
                let request = FetchRequest<ManagedObject>(
                    entityName: "Book", predicate: try ObjectPredicate(format: format, arguments: arguments), sortDescriptors: sort)
                return try store.newContext().fetch(request).compactMap { $0.value(forKey: "title") as? String }
            }
            #expect(try titles("shelfSpot.room == 'Attic'") == ["A", "C"])
            #expect(try titles("shelfSpot.position.x > 0") == ["A"])
            #expect(try titles("shelfSpot.position.x == nil") == ["B", "D"])
            #expect(try titles("shelfSpot.room == 'Attic'", sort: [.init("shelfSpot.row", ascending: false)]) == ["C", "A"])
            let spotC: AttributeValue = .composite(["room": .string("Attic"), "row": .integer(4), "position": .composite(["x": .double(-1), "y": .double(2)])])
            #expect(try titles("shelfSpot == %@", [spotC]) == ["C"])
            #expect(try titles("shelfSpot != %@", [spotC]) == ["A", "B", "D"])
            #expect(try titles("shelfSpot == nil") == ["D"])
            #expect(try titles("shelfSpot.position == %@", [AttributeValue.composite(["x": .double(3), "y": .double(0)])]) == ["A"])

            // In memory, with the unsaved book: the same meaning.
            var request = FetchRequest<ManagedObject>(
                entityName: "Book", predicate: try ObjectPredicate(format: "shelfSpot.room == 'Attic' AND shelfSpot.position.y >= 0"),
                sortDescriptors: [.init("shelfSpot.position.x")])
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["C", "A", "E"])
            request.includesPendingChanges = false
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["C", "A"])
            #expect(try ObjectPredicate(format: "shelfSpot.row > 3").evaluate(with: pending))
        }
    }

    @Test(arguments: TestedEngine.available) func wholeCompositeMisuse_isAClearError(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            func error(_ format: String, sort: [ObjectSortDescriptor] = []) throws -> String {
                let request = FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: format), sortDescriptors: sort)
                do {
                    _ = try context.fetch(request)
                    return ""
                } catch {
                    return "\(error)"
                }
            }
            #expect(try error("shelfSpot < 3").contains("composite"))
            #expect(try error("shelfSpot BEGINSWITH 'A'").contains("composite"))
            #expect(try error("shelfSpot.floor == 1").contains("shelfSpot.floor"))
            #expect(try error("title.words == 1").contains("title.words"))
            #expect(try error("TRUEPREDICATE", sort: [.init("shelfSpot")]).contains("composite"))
        }
    }

    // MARK: Generated code

    @Test(arguments: TestedEngine.available) func generatedStructs_readWriteAndQueryTyped(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let attic = Book(context: context)
            attic.title = "Attic"
            attic.shelfSpot = ShelfSpot(position: Coordinates(x: 2, y: 1), room: "Attic", row: 4)
            let cellar = Book(context: context)
            cellar.title = "Cellar"
            cellar.shelfSpot = ShelfSpot(room: "Cellar")
            let nowhere = Book(context: context)
            nowhere.title = "Nowhere"
            #expect(nowhere.shelfSpot == nil)
            #expect(ShelfSpot().row == 0 && Coordinates().x == 0, "initializer defaults are the model's")
            try context.save()

            let fresh = store.newContext()
            func titles(_ predicate: ObjectPredicate, _ sort: [ObjectSortDescriptor] = [ObjectSortDescriptor(Book.title)]) throws -> [String] {
                try fresh.fetch(FetchRequest<Book>(predicate: predicate, sortDescriptors: sort)).map(\.title)
            }
            #expect(try titles(Book.shelfSpot.room == "Attic") == ["Attic"])
            #expect(try titles(Book.shelfSpot.position.x > 1) == ["Attic"])
            #expect(try titles(Book.shelfSpot.room.beginsWith("c", options: .caseInsensitive)) == ["Cellar"])
            #expect(try titles(Book.shelfSpot.isNil) == ["Nowhere"])
            #expect(try titles(Book.shelfSpot == ShelfSpot(room: "Cellar")) == ["Cellar"])
            #expect(try titles(Book.shelfSpot != nil, [ObjectSortDescriptor(Book.shelfSpot.row, ascending: false)]) == ["Attic", "Cellar"])
            #expect(try titles(ObjectPredicate(format: "shelfSpot.room == 'Attic'")) == titles(Book.shelfSpot.room == "Attic"),
                    "the typed member key names the same key path as the format")

            let reread = try #require(try fresh.fetch(FetchRequest<Book>(predicate: Book.title == "Attic")).first)
            #expect(reread.shelfSpot == ShelfSpot(position: Coordinates(x: 2, y: 1), room: "Attic", row: 4))
            reread.shelfSpot?.position?.y = 9
            try fresh.save()
            #expect(try store.newContext().fetch(FetchRequest<Book>(predicate: Book.shelfSpot.position.y == 9)).map(\.title) == ["Attic"])
        }
    }
}
