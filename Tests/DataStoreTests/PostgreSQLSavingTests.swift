import DataStore
import Foundation
import Library
import Logging
import PostgreSQLStore
import PostgresNIO
import TestSupport
import Testing

/// Saving to the PostgreSQL store: random edits of every kind — attributes of every type, to-ones,
/// ordered and unordered to-manys, many-to-manys, delete rules, uniqueness — saved to a SQLite
/// store and to a PostgreSQL store must leave the same objects in both, and fail the same way when
/// they fail. Then what only a server meets: other processes' saves (conflicts, primary keys
/// taken at once) and a connection lost in the middle of a save.
///
/// Runs on the server of `DATAMODELKIT_POSTGRES_URL`, each test in a new database. 40 rounds of
/// random edits by default; `DATASTORE_POSTGRES_SAVES=1000` for the full run,
/// `DATASTORE_POSTGRES_SEED` to replay one.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLSavingTests {
    static let rounds = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_SAVES"].flatMap(Int.init) ?? 40
    static let seed = PostgreSQLStoreTests.seed

    @Test func randomSaves_leaveTheSameObjectsAsInTheSQLiteStore() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let sqlite = try PersistentStore.inMemory(model: TestStores.library)
            // Opening a database without tables creates the store.
            let postgreSQL = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            var random = SplitMix64(seed: Self.seed)
            var serverRandom = random
            var objects = try RandomLibrary.populate(sqlite, &random)
            var serverObjects = try RandomLibrary.populate(postgreSQL, &serverRandom)
            try Self.requireSameObjects(postgreSQL, sqlite, "seed \(Self.seed): the first save")
            var outcomes: [String: Int] = [:]
            for round in 0..<Self.rounds {
                let label = "seed \(Self.seed), round \(round)"
                let local = sqlite.newContext(), server = postgreSQL.newContext()
                serverRandom = random
                try Self.edit(local, objects, &random)
                try Self.edit(server, serverObjects, &serverRandom)
                let expected = Self.outcome { () throws(SaveError) in try local.save() }
                let outcome: String
                if round.isMultiple(of: 2) {
                    outcome = Self.outcome { () throws(SaveError) in try server.save() }
                } else {
                    do throws(SaveError) {
                        try await server.save()
                        outcome = "saved"
                    } catch {
                        outcome = Self.describe(error)
                    }
                }
                try #require(outcome == expected, "\(label)")
                outcomes[expected, default: 0] += 1
                try Self.requireSameObjects(postgreSQL, sqlite, "\(label): \(expected)")
                objects.books = try Self.bookIDs(in: sqlite)
                serverObjects.books = try Self.bookIDs(in: postgreSQL)
            }
            // The edits must save often, and fail some of the time, or they test little: about 60%
            // of rounds save (20 to 30 of 40 over ten seeds), so a quarter is far from chance.
            let saved = outcomes["saved", default: 0]
            #expect(saved >= Self.rounds / 4 && saved < Self.rounds, "\(outcomes)")
        }
    }

    @Test func anotherProcessesChange_failsTheSaveWithConflicts_andNoUpdateIsLost() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            // Two stores on one database: two processes, or two machines.
            let first = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let second = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let writer = first.newContext()
            let book = Book(context: writer)
            book.title = "Draft"
            book.pageCount = 1
            let doomed = Book(context: writer)
            doomed.title = "Doomed"
            try await writer.save()

            let other = second.newContext()
            let theirs = try #require(try await other.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Draft'"))).first)
            let theirDoomed = try #require(try await other.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Doomed'"))).first)
            book.title = "Final"
            try await writer.save()
            writer.delete(doomed)
            try await writer.save()

            theirs.pageCount = 2
            theirDoomed.pageCount = 3
            do {
                try await other.save()
                Issue.record("a save over another process's change must fail")
            } catch let error as SaveError {
                guard case .conflicts(let conflicts) = error else { throw error }
                #expect(Set(conflicts.map(\.objectID)) == [theirs.objectID, theirDoomed.objectID])
                #expect(conflicts.first { $0.objectID == theirs.objectID }?.storeVersion == 2)
                #expect(conflicts.first { $0.objectID == theirDoomed.objectID }.map { $0.storeVersion == nil } == true, "deleted")
            }
            #expect(other.hasChanges, "the failed save keeps its changes")
            // Read again, the change goes in, and the other process's title stays.
            other.refresh(theirs, mergeChanges: true)
            other.refresh(theirDoomed, mergeChanges: false)
            try await other.save()
            let reader = first.newContext()
            let saved = try #require(try await reader.fetch(FetchRequest<Book>()).first)
            #expect((saved.title, saved.pageCount) == ("Final", 2))
            #expect(try await reader.count(for: FetchRequest<Book>()) == 1)
        }
    }

    @Test func processesUpdatingInOppositeOrders_meetConflicts_neverADeadlock() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let setup = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = setup.newContext()
            let books = (0..<2).map { index in
                let book = Book(context: context)
                book.title = "Book \(index)"
                return book
            }
            try await context.save()
            let ids = books.map(\.objectID)
            let stores = [try await PersistentStore(postgreSQL: database, model: TestStores.library),
                          try await PersistentStore(postgreSQL: database, model: TestStores.library)]
            let outcomes = try await withThrowingTaskGroup(of: [String].self) { group in
                for (index, store) in stores.enumerated() {
                    // One process changes the first book first, the other the second.
                    let order = index == 0 ? ids : ids.reversed()
                    group.addTask { try await Self.updateRepeatedly(order, in: store, times: 150) }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(outcomes.allSatisfy { $0 == "saved" || $0.hasPrefix("conflicts") }, "\(Set(outcomes))")
            #expect(outcomes.contains("saved"))
        }
    }

    /// Saves a change of each of `books`, in that order, `times` times; each save's outcome.
    static func updateRepeatedly(_ books: [ObjectID], in store: PersistentStore, times: Int) async throws -> [String] {
        var outcomes: [String] = []
        for round in 0..<times {
            let context = store.newContext()
            for id in books { try #require(context.object(with: id) as? Book).pageCount = Int16(round % 100) }
            do throws(SaveError) {
                try await context.save()
                outcomes.append("saved")
            } catch {
                outcomes.append(describe(error))
            }
        }
        return outcomes
    }

    @Test func processesInsertingAtOnce_takeEveryKeyOnce() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let processes = 4, saves = 10, booksPerSave = 25
            _ = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for process in 0..<processes {
                    group.addTask {
                        let store = try await PersistentStore(postgreSQL: database, model: TestStores.library, maximumConnections: 2)
                        for save in 0..<saves { try await Self.insertBooks(booksPerSave, named: "p\(process) s\(save)", in: store) }
                    }
                }
                try await group.waitForAll()
            }
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = store.newContext()
            let books = try await context.fetch(FetchRequest<Book>())
            let keys = books.compactMap(\.objectID.primaryKey)
            #expect(books.count == processes * saves * booksPerSave)
            #expect(Set(keys).count == keys.count, "no key taken twice")
            let chapters = try await context.fetch(FetchRequest<Chapter>())
            #expect(chapters.allSatisfy { $0.book.map { "\($0.title)" } == $0.title }, "each chapter kept its own book")
            // The next key is past every key taken.
            let next = Book(context: context)
            next.title = "Next"
            try await context.save()
            #expect(try #require(next.objectID.primaryKey) > keys.max() ?? 0)
        }
    }

    @Test func aConnectionLostMidSave_failsItWholly_andTheNextSaveWorks() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Locked"
            try await context.save()
            let configuration = try PostgresConnection.Configuration(url: database)
            let admin = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
            // Another session holds the book's row: the save inserts, then waits on its update.
            let table = try #require(store.entity(named: "Book")).tableName
            try await admin.query("BEGIN", logger: admin.logger)
            try await admin.query(PostgresQuery(unsafeSQL: #"SELECT * FROM "\#(table)" FOR UPDATE"#), logger: admin.logger)
            let bookID = book.objectID
            let failure = Task { try await Self.saveError(of: store, changing: bookID) }
            // The same changes, to save once the connection is lost.
            for index in 0..<5 { Book(context: context).title = "Added \(index)" }
            book.pageCount = 7
            try await PostgreSQLTestServer.endSessionsWaitingForALock(1, admin: admin)
            let error = try await failure.value
            guard case .database(let message) = error else { throw error }
            #expect(message.contains("PostgreSQL"), "\(message)")
            try await admin.query("ROLLBACK", logger: admin.logger)
            try await admin.close()
            // Nothing of the failed save was written.
            let reader = store.newContext()
            #expect(try await reader.count(for: FetchRequest<Book>()) == 1)
            #expect(try await reader.fetch(FetchRequest<Book>()).first?.pageCount == 0)
            // The store recovers: the same changes save on a new connection.
            try await context.save()
            #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 6)
        }
    }

    /// A connection that ends during `COMMIT` leaves the save's outcome unknown, and the error
    /// says so rather than claim nothing was written. The commit is held by a deferred trigger
    /// waiting for a lock another session holds, and its session is ended there.
    @Test func aConnectionLostDuringTheCommit_saysTheOutcomeIsUnknown() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let admin = try await Self.holdCommits(of: "Book", in: store, database: database)
            let failure = Task { try await Self.saveError(of: store, inserting: "Committing") }
            try await PostgreSQLTestServer.endSessionsWaitingForALock(1, admin: admin)
            let error = try await failure.value
            guard case .commitOutcomeUnknown(let message) = error else { throw error }
            #expect(message.contains("during the commit"), "\(message)")
            try await admin.query("SELECT pg_advisory_unlock(4242)", logger: admin.logger)
            try await admin.close()
            // Here the session ended before the commit took effect: the store holds nothing of it.
            #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 0)
        }
    }

    /// A batch request whose connection ends during `COMMIT` says its outcome is unknown too.
    @Test func aConnectionLostDuringABatchCommit_saysTheOutcomeIsUnknown() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let admin = try await Self.holdCommits(of: "Book", in: store, database: database)
            // On a thread of its own: the synchronous request waits for the server.
            let failure = Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<BatchError?, Never>) in
                    Thread.detachNewThread {
                        do throws(BatchError) {
                            _ = try store.newContext().execute(BatchInsertRequest<Book>(objects: [["title": "Committing"]]))
                            continuation.resume(returning: nil)
                        } catch {
                            continuation.resume(returning: error)
                        }
                    }
                }
            }
            try await PostgreSQLTestServer.endSessionsWaitingForALock(1, admin: admin)
            let error = await failure.value
            guard case .commitOutcomeUnknown(let message)? = error else { throw error ?? BatchError.database(message: "the request succeeded") }
            #expect(message.contains("during the commit"), "\(message)")
            try await admin.query("SELECT pg_advisory_unlock(4242)", logger: admin.logger)
            try await admin.close()
        }
    }

    /// An admin connection that holds the commit of every transaction inserting into `entity`'s
    /// table: a deferred trigger waits for an advisory lock the connection holds.
    static func holdCommits(of entity: String, in store: PersistentStore, database: String) async throws -> PostgresConnection {
        let configuration = try PostgresConnection.Configuration(url: database)
        let admin = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
        let table = try #require(store.entity(named: entity)).tableName
        try await admin.query("""
            CREATE FUNCTION wait_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$
            """, logger: admin.logger)
        try await admin.query(PostgresQuery(unsafeSQL: """
            CREATE CONSTRAINT TRIGGER wait_at_commit AFTER INSERT ON "\(table)"
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wait_at_commit()
            """), logger: admin.logger)
        try await admin.query("SELECT pg_advisory_lock(4242)", logger: admin.logger)
        return admin
    }

    /// Text PostgreSQL cannot hold (U+0000) anywhere a save would write it — a composite's member,
    /// the transaction's author — fails the save before anything is written, saying where.
    @Test func textWithU0000_failsTheSaveBeforeWriting() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = store.newContext()
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(["room": "At\u{0}tic", "row": 3], forKey: "shelfSpot")
            let refusal = ValidationFailure.unstorableValue(book.objectID, property: "shelfSpot", reason: "PostgreSQL text cannot hold the character U+0000")
            await #expect(throws: SaveError.validation([refusal])) { try await context.save() }
            try book.setValue(["room": "Attic", "row": 3], forKey: "shelfSpot")
            context.transactionAuthor = "im\u{0}port"
            do {
                try await context.save()
                Issue.record("an author with U+0000 must fail the save")
            } catch let error as SaveError {
                guard case .database(let message) = error else { throw error }
                #expect(message.contains("transactionAuthor cannot be stored"), "\(message)")
            }
            #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 0)
            context.transactionAuthor = "import"
            try await context.save()
            #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 1)
        }
    }

    static func saveError(of store: PersistentStore, inserting title: String) async throws -> SaveError {
        try await saveError(of: store) { context in Book(context: context).title = title }
    }

    @Test func uniquenessAcrossTheSave_asInTheSQLiteStore() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = store.newContext()
            let first = Author(context: context), second = Author(context: context)
            (first.name, second.name) = ("Ann", "Bea")
            try await context.save()
            // A name passed on within one save is no conflict.
            (first.name, second.name) = ("Cay", "Ann")
            try await context.save()
            // A name another saved author has is.
            let third = Author(context: context)
            third.name = "Cay"
            do {
                try await context.save()
                Issue.record("a second author named Cay must fail the save")
            } catch let error as SaveError {
                guard case .validation(let failures) = error else { throw error }
                #expect(failures.count == 1)
                #expect("\(failures)".contains("\(first.objectID)"), "names the author who has the name")
            }
            // The failed save wrote nothing and keeps its changes; fixed, it saves.
            #expect(third.objectID.isTemporaryID)
            third.name = "Dee"
            try await context.save()
            let names = try await store.newContext().fetch(FetchRequest<Author>()).map(\.name).sorted()
            #expect(names == ["Ann", "Cay", "Dee"])
        }
    }

    // MARK: Helpers

    /// The error of saving `pageCount = 7` of `book` and five new books, in a context of its own.
    static func saveError(of store: PersistentStore, changing book: ObjectID) async throws -> SaveError {
        try await saveError(of: store) { context in
            let object = try #require(context.object(with: book) as? Book)
            object.pageCount = 7
            for index in 0..<5 { Book(context: context).title = "Added \(index)" }
        }
    }

    /// The error of a save of the changes `edit` makes in a new context of `store`; the context
    /// must keep them.
    static func saveError(of store: PersistentStore, _ edit: (ObjectContext) throws -> Void) async throws -> SaveError {
        let context = store.newContext()
        try edit(context)
        do {
            try await context.save()
        } catch {
            #expect(context.hasChanges)
            return error
        }
        throw SaveError.database(message: "the save did not fail")
    }

    /// Saves `count` new books, each with a chapter titled as its book.
    static func insertBooks(_ count: Int, named name: String, in store: PersistentStore) async throws {
        let context = store.newContext()
        for index in 0..<count {
            let book = Book(context: context)
            book.title = "\(name) #\(index)"
            let chapter = Chapter(context: context)
            chapter.title = book.title
            chapter.book = book
        }
        try await context.save()
    }

    /// A few random edits, as `ChildContextRandomTests` makes them, and more: ordered and
    /// unordered to-manys, many-to-manys, and attributes of every type.
    static func edit(_ context: ObjectContext, _ objects: RandomLibrary.Objects, _ random: inout SplitMix64) throws {
        try ChildContextRandomTests.edit(context, objects, &random, deletesAnyBook: true)
        // Pairs of saved books: none when a long run has deleted them all.
        guard !objects.books.isEmpty else { return }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let book = context.object(with: objects.books.randomElement(using: &random)!)
            let other = context.object(with: objects.books.randomElement(using: &random)!)
            guard !book.isDeleted, !other.isDeleted else { continue }
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let tag = context.object(with: objects.tags.randomElement(using: &random)!)
                var books = tag.value(forKey: "books") as? [ManagedObject] ?? []
                books.shuffle(using: &random)
                if let index = books.firstIndex(of: book) { books.remove(at: index) } else { books.insert(book, at: Int.random(in: 0...books.count, using: &random)) }
                try tag.setValue(books, forKey: "books")
            case 1:
                var related = book.value(forKey: "related") as? Set<ManagedObject> ?? []
                if related.remove(other) == nil { related.insert(other) }
                try book.setValue(related, forKey: "related")
            case 2:
                let chapter = try context.insertObject(entityName: "Chapter")
                try chapter.setValue(Int16.random(in: 0...4, using: &random), forKey: "index")
                var chapters = book.value(forKey: "chapters") as? [ManagedObject] ?? []
                chapters.insert(chapter, at: Int.random(in: 0...chapters.count, using: &random))
                chapters.shuffle(using: &random)
                try book.setValue(chapters, forKey: "chapters")
            case 3:
                var readers = book.value(forKey: "recommendedBy") as? Set<ManagedObject> ?? []
                // The first by key: a set's own order differs from store to store.
                if let first = readers.min(by: { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }), Bool.random(using: &random) {
                    readers.remove(first)
                }
                try book.setValue(readers, forKey: "recommendedBy")
            case 4:
                try book.setValue(Bool.random(using: &random) ? nil : Decimal(Int.random(in: -99...99, using: &random)) / 8, forKey: "price")
                try book.setValue(RandomLibrary.uuids.randomElement(using: &random), forKey: "identifier")
                try book.setValue(RandomLibrary.blobs.randomElement(using: &random), forKey: "cover")
                try book.setValue(Int32.random(in: .min ... .max, using: &random), forKey: "wordCount")
            default:
                try book.setValue(Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &random)), forKey: "published")
                try book.setValue(Float(Int.random(in: 0...10, using: &random)) / 2, forKey: "rating")
                try book.setValue(Double.random(in: -1e6...1e6, using: &random), forKey: "weight")
                try book.setValue(RandomLibrary.urls.randomElement(using: &random), forKey: "website")
                try book.setValue(RandomLibrary.strings.randomElement(using: &random)!, forKey: "notes")
            }
        }
    }

    /// Every object of the store, read in a new context: entity, key, every stored attribute's
    /// value and every relationship's destinations by key (in order for an ordered one).
    static func dump(_ store: PersistentStore) throws -> [String] {
        let context = store.newContext()
        var lines: [String] = []
        for entity in store.entities {
            var request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let objects = try PostgreSQLStoreTests.synchronously { try context.fetch(request) }
            for object in objects.sorted(by: { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }) {
                let relationships = object.entity.relationships.map { relationship in
                    "\(relationship.name)=\(Self.keys(of: object.value(forKey: relationship.name)))"
                }
                // Derived attributes are left out: PostgreSQL has no triggers that keep them current yet.
                let attributes = object.entity.attributes.filter { !$0.isDerived }.map { attribute in
                    "\(attribute.name)=\(String(describing: object.value(forKey: attribute.name)))"
                }
                lines.append("\(object.entity.name)/\(object.objectID.primaryKey ?? 0) " + (attributes + relationships).joined(separator: " "))
            }
        }
        return lines
    }

    /// Requires the stores to hold the same objects; the first that differ are the failure's message.
    static func requireSameObjects(_ postgreSQL: PersistentStore, _ sqlite: PersistentStore, _ label: String) throws {
        let server = try dump(postgreSQL), local = try dump(sqlite)
        guard server != local else { return }
        // Each differing object, with only the values that differ.
        let differing = zip(server, local).filter { $0 != $1 }.prefix(3).map { server, local in
            let (serverValues, localValues) = (server.split(separator: " "), local.split(separator: " "))
            let values = zip(serverValues, localValues).filter { $0 != $1 }.map { "PostgreSQL \($0), SQLite \($1)" }
            return "\(serverValues.first ?? ""): " + values.joined(separator: "; ")
        }
        Issue.record("\(label): \(server.count) objects on PostgreSQL, \(local.count) in SQLite\n\(differing.joined(separator: "\n"))")
        throw CancellationError()
    }

    /// The keys of a relationship's destinations: sorted for a set, in order for a list.
    static func keys(of value: Any?) -> String {
        func key(_ object: ManagedObject) -> String { "\(object.entity.name)/\(object.objectID.primaryKey ?? 0)" }
        switch value {
        case let object as ManagedObject: return key(object)
        case let list as [ManagedObject]: return "[" + list.map(key).joined(separator: ",") + "]"
        case let set as Set<ManagedObject>: return "{" + set.map(key).sorted().joined(separator: ",") + "}"
        case nil: return "nil"
        default: return "\(value!)"
        }
    }

    /// The books of the store, by key.
    static func bookIDs(in store: PersistentStore) throws -> [ObjectID] {
        let books = try PostgreSQLStoreTests.synchronously { try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Book")) }
        return books.map(\.objectID).sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
    }

    /// What a save came to, alike for both stores: saved, or the kind of failure and its count.
    static func outcome(_ save: () throws(SaveError) -> Void) -> String {
        do {
            try save()
            return "saved"
        } catch {
            return describe(error)
        }
    }

    /// A failure's kind and property, without the object IDs, which differ between the stores.
    static func kind(_ failure: ValidationFailure) -> String {
        switch failure {
        case .missingValue(_, let property): "\(property) missing"
        case .outOfRange(_, let property, _, _): "\(property) out of range"
        case .patternMismatch(_, let property, _): "\(property) mismatches"
        case .countOutOfRange(_, let property, _): "\(property) count out of range"
        case .deleteDenied(_, let relationship): "delete denied by \(relationship)"
        case .uniquenessViolated(_, let constraint, _): "\(constraint) not unique"
        default: "\(failure)"
        }
    }

    static func describe(_ error: SaveError) -> String {
        switch error {
        case .conflicts(let conflicts): "conflicts: \(conflicts.count)"
        case .validation(let failures): "validation: " + failures.map(kind).sorted().joined(separator: ", ")
        default: "\(error)"
        }
    }
}
