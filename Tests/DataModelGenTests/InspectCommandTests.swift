import DataModelParser
import DataStore
import Foundation
import GRDB
import StoreSchema
import Testing
import TestSupport

/// `datamodel-gen inspect`: a store's objects with typed values, read-only, for ours and Core Data's.
@Suite struct InspectCommandTests {
    static let everything = "Models/Everything.xcdatamodeld"

    /// A store of the Everything 2 model holding one object of most kinds, written through key-value coding.
    static func libraryStore() throws -> (url: URL, store: PersistentStore) {
        let loaded = try ModelLoader().load(CLITests.packageRoot.appendingPathComponent(everything).path, version: "Everything 2")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("Library.sqlite")
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: loaded.model))
        let context = store.newContext()
        let author = try context.insertObject(entityName: "Author")
        try author.setValue("Ursula \"Le\" Guin\n", forKey: "name")
        let book = try context.insertObject(entityName: "Ebook")
        try book.setValue("The Dispossessed", forKey: "title")
        try book.setValue(Int64(387), forKey: "pageCount")
        try book.setValue(Decimal(string: "12.99")!, forKey: "price")
        try book.setValue(Date(timeIntervalSinceReferenceDate: 1.5), forKey: "published")
        try book.setValue(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, forKey: "identifier")
        try book.setValue(Data([0, 1, 2, 255]), forKey: "cover")
        try book.setValue(URL(string: "https://example.org/book")!, forKey: "website")
        try book.setValue(false, forKey: "isAvailable")
        try book.setValue(["room": "Attic", "row": 2, "position": ["x": 1.5, "y": 0.0]], forKey: "shelfSpot")
        try book.setValue(author, forKey: "author")
        let first = try context.insertObject(entityName: "Chapter")
        try first.setValue(book, forKey: "book")
        let second = try context.insertObject(entityName: "Chapter")
        try second.setValue(book, forKey: "book")
        // Ordered: the second chapter first.
        try book.setValue([second, first], forKey: "chapters")
        try context.save()
        return (url, store)
    }

    /// A new `Notes.xcdatamodel`, in a folder of its own, whose one entity `Note` has `attributes`.
    static func notesModel(attributes: String) throws -> URL {
        let model = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)/Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Note" representedClassName="Note" syncable="YES">
            \(attributes)
                </entity>
            </model>
            """.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return model
    }

    static func json(_ run: CLITests.Run) throws -> [String: [[String: Any]]] {
        try #require(run.status == 0, "\(run.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [[String: Any]]])
    }

    @Test func json_hasTypedValues_andRelationshipsAsObjectIDs() throws {
        let (url, store) = try Self.libraryStore()
        let before = try Data(contentsOf: url)
        let objects = try Self.json(CLITests.run("inspect", url.path, "--model", Self.everything, "--model-version", "Everything 2"))
        // Every entity is a key; each object is listed under its own entity only.
        #expect(Set(objects.keys) == Set(store.entities.map(\.name)))
        #expect(objects["Book"]?.isEmpty == true)
        let book = try #require(objects["Ebook"]?.first)
        let author = try #require(objects["Author"]?.first)
        let chapters = try #require(objects["Chapter"])
        #expect((book["objectID"] as? String)?.hasPrefix("x-coredata://\(store.identifier)/Ebook/p") == true)
        #expect(book["title"] as? String == "The Dispossessed")
        #expect(book["pageCount"] as? Int == 387)
        #expect((book["price"] as? NSNumber)?.decimalValue == Decimal(string: "12.99"))
        #expect(book["published"] as? String == "2001-01-01T00:00:01.500Z")
        #expect(book["identifier"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(book["cover"] as? String == "AAEC/w==")
        #expect(book["website"] as? String == "https://example.org/book")
        #expect(book["isAvailable"] as? Bool == false)
        #expect(book["fileFormat"] as? String == "epub")
        #expect(book["isbn"] is NSNull)
        // A composite is an object of its members, nested composites nested.
        let spot = try #require(book["shelfSpot"] as? [String: Any])
        #expect(spot["room"] as? String == "Attic")
        #expect(spot["row"] as? Int == 2)
        #expect((spot["position"] as? [String: Any])?["x"] as? Double == 1.5)
        #expect(book["author"] as? String == author["objectID"] as? String)
        #expect(author["name"] as? String == "Ursula \"Le\" Guin\n")
        #expect(author["books"] as? [String] == [try #require(book["objectID"] as? String)])
        // The ordered to-many keeps its order.
        #expect(book["chapters"] as? [String] == chapters.reversed().map { $0["objectID"] as? String ?? "" })
        #expect(chapters.allSatisfy { $0["book"] as? String == book["objectID"] as? String })
        // Read-only: the store file is unchanged.
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func entityOption_selectsTheEntityAndItsSubentities() throws {
        let (url, _) = try Self.libraryStore()
        let objects = try Self.json(CLITests.run("inspect", url.path, "--model", Self.everything, "--model-version", "Everything 2", "--entity", "Book"))
        #expect(Set(objects.keys) == ["Book", "Audiobook", "Ebook"])
    }

    @Test func table_isOneAlignedTablePerEntity() throws {
        let (url, _) = try Self.libraryStore()
        let run = try CLITests.run("inspect", url.path, "--model", Self.everything, "--model-version", "Everything 2", "--entity", "Chapter", "--format", "table")
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Chapter (2 objects)
            objectID    index  title  book
            ----------  -----  -----  --------
            Chapter/p1  0      nil    Ebook/p1
            Chapter/p2  0      nil    Ebook/p1


            """)
    }

    @Test func errors_areLocatedAndLeaveNothingOnStandardOutput() throws {
        let (url, _) = try Self.libraryStore()
        let unknown = try CLITests.run("inspect", url.path, "--model", Self.everything, "--model-version", "Everything 2", "--entity", "Nope")
        #expect(unknown.status == 1)
        #expect(unknown.standardOutput.isEmpty)
        #expect(unknown.standardError.contains("error: the model has no entity 'Nope'; its entities are Audiobook, Author, Book"))

        let otherVersion = try CLITests.run("inspect", url.path, "--model", Self.everything, "--model-version", "Everything 1")
        #expect(otherVersion.status == 1)
        #expect(otherVersion.standardOutput.isEmpty)
        #expect(otherVersion.standardError.hasPrefix("\(url.path): error: the store was written with a different model; entities that differ: "))

        let missing = try CLITests.run("inspect", url.path + "-missing", "--model", Self.everything)
        #expect(missing.status == 1)
        #expect(missing.standardError == "\(url.path)-missing: error: no store at \(url.path)-missing\n")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-missing"))
    }

    @Test func queryOptions_filterSortLimitAndCount() throws {
        let (url, store) = try Self.libraryStore()
        let context = store.newContext()
        for (title, pages) in [("Always Coming Home", 562), ("Lavinia", 279), ("The Lathe of Heaven", 184)] {
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(Int64(pages), forKey: "pageCount")
        }
        try context.save()
        let base = ["inspect", url.path, "--model", Self.everything, "--model-version", "Everything 2", "--entity", "Book"]
        let query = try Self.json(CLITests.run(base + ["--predicate", "pageCount > 200 AND title CONTAINS[cd] 'I'", "--sort", "pageCount:desc"]))
        // Subentities' objects come in the same list, in the requested order.
        #expect(query["Book"]?.map { $0["title"] as? String } == ["Always Coming Home", "The Dispossessed", "Lavinia"])
        let page = try Self.json(CLITests.run(base + ["--sort", "title", "--limit", "2", "--offset", "1"]))
        #expect(page["Book"]?.map { $0["title"] as? String } == ["Lavinia", "The Dispossessed"])
        let count = try CLITests.run(base + ["--predicate", "author.name BEGINSWITH 'Ursula'", "--count"])
        #expect(count.status == 0 && count.standardOutput == "1\n")

        let syntax = try CLITests.run(base + ["--predicate", "pageCount > 200 AND (title == 'x'"])
        #expect(syntax.status == 1 && syntax.standardOutput.isEmpty)
        #expect(syntax.standardError == "error: --predicate: expected ')' at column 21 in \"pageCount > 200 AND (title == 'x'\"\n")
        let unknownKey = try CLITests.run(base + ["--predicate", "pages > 2"])
        #expect(unknownKey.status == 1 && unknownKey.standardError.contains("error: entity 'Book' has no key path 'pages'"))
        let withoutEntity = try CLITests.run("inspect", url.path, "--model", Self.everything, "--count")
        #expect(withoutEntity.status != 0 && withoutEntity.standardError.contains("add --entity NAME"))
    }

    /// Every store Core Data wrote in the corpus: every row of every entity, with the stored values.
    @Test(.enabled(if: CorpusStore.isAvailable, "../shared/corpus is absent"), arguments: CorpusStore.names())
    func coreDataStore_printsEveryObjectWithItsValues(store name: String) throws {
        let corpus = CorpusStore(name)
        let url = try corpus.copyOfStoreFile()
        let objects = try Self.json(CLITests.run("inspect", url.path, "--model", corpus.modelURL().path))
        let model = ManagedObjectModel(model: try corpus.model())
        let store = try PersistentStore.readOnly(url: url, model: model)
        let raw = try DatabaseQueue(path: url.path)
        try raw.read { db in
            for entity in store.entities {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(entity.tableName) WHERE Z_ENT = ? ORDER BY Z_PK", arguments: [entity.number])
                let printed = try #require(objects[entity.name], "\(name): \(entity.name)")
                #expect(printed.count == rows.count, "\(name): \(entity.name)")
                for (object, row) in zip(printed, rows) {
                    let primaryKey: Int64 = row["Z_PK"]
                    #expect(object["objectID"] as? String == "x-coredata://\(store.identifier)/\(entity.name)/p\(primaryKey)")
                    for attribute in entity.attributes {
                        guard let column = attribute.columnName else { continue }
                        let stored: DatabaseValue = row[column]
                        let value = object[attribute.name]
                        #expect((value is NSNull) == stored.isNull, "\(entity.name).\(attribute.name)")
                        guard !stored.isNull else { continue }
                        switch attribute.type {
                        case .string:
                            #expect(value as? String == String.fromDatabaseValue(stored), "\(entity.name).\(attribute.name)")
                        case .integer16, .integer32, .integer64:
                            #expect((value as? NSNumber)?.int64Value == Int64.fromDatabaseValue(stored), "\(entity.name).\(attribute.name)")
                        case .boolean:
                            #expect(value as? Bool == ((Int64.fromDatabaseValue(stored) ?? 0) != 0), "\(entity.name).\(attribute.name)")
                        case .date:
                            let date = try #require(try Date((value as? String) ?? "", strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                            let seconds = try #require(Double.fromDatabaseValue(stored))
                            #expect(abs(date.timeIntervalSinceReferenceDate - seconds) < 0.001, "\(entity.name).\(attribute.name)")
                        case .uuid:
                            let bytes = try #require(Data.fromDatabaseValue(stored))
                            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                            #expect(value as? String == uuid.uuidString, "\(entity.name).\(attribute.name)")
                        case .binary, .transformable:
                            #expect(value as? String == Data.fromDatabaseValue(stored)?.base64EncodedString(), "\(entity.name).\(attribute.name)")
                        case .double, .float, .decimal:
                            // Decimal columns have NUMERIC affinity: integral values are stored as INTEGER.
                            if case .string("NaN") = stored.storage {
                                #expect(value as? String == "NaN", "\(entity.name).\(attribute.name)")  // NSDecimalNumber.notANumber
                            } else {
                                #expect((value as? NSNumber)?.doubleValue == Double.fromDatabaseValue(stored), "\(entity.name).\(attribute.name)")
                            }
                        default:
                            break
                        }
                    }
                    for relationship in entity.relationships {
                        let role = Column.Role.foreignKey(entity: relationship.entityName, relationship: relationship.name)
                        guard let column = model.schema.table(forEntityNamed: entity.name)?.column(for: role)?.name else { continue }
                        let key: Int64? = row[column]
                        #expect((object[relationship.name] as? String)?.hasSuffix("/p\(key ?? -1)") ?? (key == nil), "\(entity.name).\(relationship.name)")
                    }
                }
            }
        }
    }

    /// `--history` on a store with history written here: every transaction with its changes, the
    /// updated properties named, `--after` and `--entity` narrowing it.
    @Test func history_listsTransactionsAndChanges() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString).sqlite")
        let model = "Models/FailedBanks.xcdatamodeld"
        let loaded = try ModelLoader().load(model).model
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: loaded), history: .enabled)
        let context = store.newContext()
        context.transactionAuthor = "importer"
        let bank = try context.insertObject(entityName: "FailedBankInfo")
        try bank.setValue("First", forKey: "name")
        try context.save()
        context.transactionAuthor = nil
        try bank.setValue("First Federal", forKey: "name")
        try bank.setValue("TX", forKey: "state")
        try context.save()

        let run = try CLITests.run("inspect", url.path, "--model", model, "--history")
        #expect(run.status == 0, "\(run.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [[String: Any]]])
        let transactions = try #require(json["transactions"])
        #expect(transactions.map { $0["token"] as? Int } == [1, 2])
        #expect(transactions.map { $0["author"] as? String } == ["importer", nil])
        #expect(transactions.allSatisfy { $0.keys.sorted() == ["author", "changes", "contextName", "timestamp", "token"] })
        let update = try #require((transactions[1]["changes"] as? [[String: Any]])?.first)
        #expect(update["changeType"] as? String == "update")
        #expect(update["entity"] as? String == "FailedBankInfo")
        #expect(update["objectID"] as? String == bank.objectID.description)
        #expect(update["updatedProperties"] as? [String] == ["name", "state"])

        let table = try CLITests.run("inspect", url.path, "--model", model, "--history", "--after", "1", "--format", "table")
        #expect(table.standardOutput.hasPrefix("Transaction 2  "))
        #expect(table.standardOutput.hasSuffix("  update  \(bank.objectID): name, state\n"))
        let details = try CLITests.run("inspect", url.path, "--model", model, "--history", "--entity", "FailedBankDetails", "--format", "table")
        #expect(details.standardOutput == "No transactions.\n")
        let updates = try CLITests.run("inspect", url.path, "--model", model, "--history", "--predicate", "changeType == 1", "--format", "table")
        #expect(updates.standardOutput.hasPrefix("Transaction 2  ") && !updates.standardOutput.contains("insert"))
        let unknownKey = try CLITests.run("inspect", url.path, "--model", model, "--history", "--predicate", "name != nil")
        #expect(unknownKey.status != 0 && unknownKey.standardError.contains("'name' is not a key of a history change"))
        let mixed = try CLITests.run("inspect", url.path, "--model", model, "--history", "--count")
        #expect(mixed.status != 0 && mixed.standardError.contains("--history lists transactions"))
    }

    /// A delete's preserved values print with its change, in JSON and in the table.
    @Test func history_showsTombstones() throws {
        let model = try Self.notesModel(attributes: """
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="rank" optional="YES" attributeType="Integer 64" usesScalarValueType="YES" preserveAfterDeletion="YES"/>
            <attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
            """)
        let url = model.deletingLastPathComponent().appendingPathComponent("Notes.sqlite")
        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: try ModelLoader().load(model.path).model), history: .enabled)
        let context = store.newContext()
        let note = try context.insertObject(entityName: "Note")
        try note.setValue("Groceries", forKey: "title")
        try note.setValue(2, forKey: "rank")
        try note.setValue("milk", forKey: "body")
        try context.save()
        context.delete(note)
        try context.save()

        let run = try CLITests.run("inspect", url.path, "--model", model.path, "--history", "--predicate", "changeType == 2")
        #expect(run.status == 0, "\(run.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [[String: Any]]])
        let delete = try #require((json["transactions"]?.first?["changes"] as? [[String: Any]])?.first)
        #expect(delete["changeType"] as? String == "delete")
        let tombstone = try #require(delete["tombstone"] as? [String: Any])
        #expect(tombstone.keys.sorted() == ["rank", "title"] && tombstone["title"] as? String == "Groceries" && tombstone["rank"] as? Int == 2)
        let table = try CLITests.run("inspect", url.path, "--model", model.path, "--history", "--format", "table")
        #expect(table.standardOutput.hasSuffix("  delete  \(note.objectID)  kept {rank: 2, title: Groceries}\n"))
        #expect(!table.standardOutput.contains("insert  \(note.objectID)  kept"), "inserts keep nothing")
    }

    /// Core Data's own history reads too.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func history_ofACoreDataStore() throws {
        let corpus = CorpusStore("passepartout__Profiles")
        let run = try CLITests.run("inspect", try corpus.copyOfStoreFile().path, "--model", try corpus.modelURL().path, "--history", "--format", "table")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("Transaction 1  2024-10-01T10:18:30.214Z  author NSCloudKitMirroringDelegate.import\n  insert  x-coredata://"))
        #expect(run.standardOutput.components(separatedBy: "  insert  ").count == 19)
        #expect(run.standardOutput.hasSuffix("lightweight migration from model with digest { U45qPQ5y09uxMikQEDrm1yJI710Di5MwNSKn37pG3AN858y1204y57YB65xUTh4bTLyC/MrQuD50F23urRdcGQ== }\n  (no changes)\n"))
    }
}
