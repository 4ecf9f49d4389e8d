import DataModelParser
@testable import DataStore
import Foundation
import GRDB
import TestSupport
import Testing

/// Persistent history in Core Data's layout: what a save records, reading it after a token,
/// deleting it, expired tokens, and another connection's or process's changes delivered exactly.
@Suite struct HistoryTests {
    static func newStore(_ url: URL = TestStores.newStoreURL(), history: HistoryTracking = .enabled) throws -> PersistentStore {
        try PersistentStore(url: url, model: TestStores.failedBanks, history: history)
    }

    static func bank(_ context: ObjectContext, _ name: String) throws -> ManagedObject {
        let bank = try context.insertObject(entityName: "FailedBankInfo")
        try bank.setValue(name, forKey: "name")
        return bank
    }

    /// The history tables, columns, indexes and `Z_PRIMARYKEY` rows of a new store with history are
    /// those of a store Core Data wrote with history on.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func newStoreWithHistory_hasCoreDatasHistoryTables() throws {
        let store = try Self.newStore()
        #expect(store.tracksHistory)
        func historySchema(_ url: URL) throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: """
                    SELECT sql FROM sqlite_master WHERE tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY name
                    """)
                    + String.fetchAll(db, sql: "SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT BETWEEN 16000 AND 16999")
            }
        }
        let coreData = try CorpusStore("passepartout__Profiles").copyOfStoreFile()
        #expect(try historySchema(store.url!) == historySchema(coreData))
    }

    /// Core Data's history reads: the transactions, their strings, and their changes.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func coreDataHistory_reads() throws {
        let corpus = CorpusStore("passepartout__Profiles")
        let model = try ModelLoader().load(corpus.modelURL().path).model
        let store = try PersistentStore(url: corpus.copyOfStoreFile(), model: ManagedObjectModel(model: model))
        #expect(store.tracksHistory, "a store with history keeps recording it")
        let history = try store.fetchHistory(after: nil)
        #expect(history.map(\.transactionNumber) == [1, 2])
        #expect(history[0].author == "NSCloudKitMirroringDelegate.import")
        #expect(history[0].bundleID == "com.algoritmico.ios.Passepartout")
        #expect(history[0].processID == "Passepartout")
        #expect(history[0].changes.count == 18)
        #expect(history[0].changes.allSatisfy { $0.changeType == .insert && $0.changedObjectID.entityName == "CDProfile" })
        #expect(history[1].author?.hasPrefix("com.apple.coredata.schemamigrator: lightweight migration") == true)
        #expect(history[1].changes.isEmpty)
        #expect(history[0].timestamp == Date(timeIntervalSinceReferenceDate: 749470710.214248))
    }

    @Test(arguments: TestedEngine.available) func saves_recordTransactionsWithTheirChanges(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine, history: .enabled) { store throws in
            let context = store.newContext()
            context.transactionAuthor = "app"
            context.name = "editor"
            let first = try Self.bank(context, "First")
            let second = try Self.bank(context, "Second")
            try context.save()
            try first.setValue("First Federal", forKey: "name")
            try first.setValue("Austin", forKey: "city")
            try context.save()
            context.delete(second)
            try context.save()

            let history = try store.fetchHistory(after: nil)
            #expect(history.map(\.transactionNumber) == [1, 2, 3])
            #expect(history.allSatisfy { $0.author == "app" && $0.contextName == "editor" && $0.processID == ProcessInfo.processInfo.processName })
            #expect(history[0].changes.map(\.changeType) == [.insert, .insert])
            #expect(history[0].changes.map(\.changedObjectID) == [first.objectID, second.objectID])
            #expect(history[1].changes.map(\.changeType) == [.update])
            #expect(history[1].changes[0].updatedProperties == ["name", "city"])
            #expect(history[2].changes.map(\.changeType) == [.delete])
            #expect(history[2].changes[0].changedObjectID == second.objectID)
            #expect(history[1].changeSet.updated == [first.objectID: ["name", "city"]])
            // Core Data's bits: the to-one key `details` first, then the attributes in column order
            // (city, name, state), from the most significant bit.
            #expect(try TestStores.rows(#"SELECT "ZCOLUMNS" FROM "ACHANGE" WHERE "ZCHANGETYPE" = 1"#, in: store) == [["60"]])  // 0b0110_0000
            // SQLite's history keeps each name once, in ATRANSACTIONSTRING; a server's, in the transaction's row.
            let strings = engine == .sqlite
                ? try TestStores.rows(#"SELECT "ZNAME" FROM "ATRANSACTIONSTRING" ORDER BY "Z_PK""#, in: store)
                : try TestStores.rows(#"SELECT DISTINCT "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID" FROM "ATRANSACTION""#, in: store)
            #expect(Array(strings.joined()) == ["app", "editor", ProcessInfo.processInfo.processName])
        }
    }

    @Test(arguments: TestedEngine.available) func tokens_roundTripAsData_andFiltersKeepWhatTheyName(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine, history: .enabled) { store throws in
            let context = store.newContext()
            #expect(try store.currentHistoryToken() == nil)
            context.transactionAuthor = "import"
            _ = try Self.bank(context, "Imported")
            try context.save()
            let token = try #require(try store.currentHistoryToken())
            let saved = try JSONEncoder().encode(token)
            context.transactionAuthor = "app"
            let bank = try Self.bank(context, "Typed")
            let details = try context.insertObject(entityName: "FailedBankDetails")
            try bank.setValue(details, forKey: "details")
            try context.save()
            try bank.setValue("Retyped", forKey: "name")
            try context.save()

            let restored = try JSONDecoder().decode(HistoryToken.self, from: saved)
            #expect(restored == token)
            #expect(try store.fetchHistory(after: restored).map(\.transactionNumber) == [2, 3])
            #expect(try store.fetchHistory(after: nil, author: "import").map(\.transactionNumber) == [1])
            let detailsOnly = try store.fetchHistory(after: nil, entityNames: ["FailedBankDetails"])
            #expect(detailsOnly.map(\.transactionNumber) == [2])
            #expect(detailsOnly[0].changes.map(\.changedObjectID) == [details.objectID])
            let updates = try store.fetchHistory(after: nil) { $0.changeType == .update }
            #expect(updates.map(\.transactionNumber) == [3])
            #expect(try store.fetchHistory(after: Date.distantFuture).isEmpty)
            #expect(try store.fetchHistory(after: Date.distantPast).count == 3)
        }
    }

    /// Predicates on changes keep what they name: change types, objects, entities, changed
    /// properties and the transaction's author and time; an unknown key is a typed error.
    @Test(arguments: TestedEngine.available) func predicates_keepTheChangesTheyMatch(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine, history: .enabled) { store throws in
            let context = store.newContext()
            context.transactionAuthor = "import"
            let first = try Self.bank(context, "First")
            let second = try Self.bank(context, "Second")
            try context.save()
            context.transactionAuthor = "app"
            try first.setValue("First Federal", forKey: "name")
            try first.setValue("Austin", forKey: "city")
            try context.save()
            context.delete(second)
            try context.save()

            func kept(_ format: String, _ arguments: any PredicateArgument...) throws -> [String] {
                try store.fetchHistory(after: nil, matching: ObjectPredicate(format: format, arguments: arguments)).flatMap { transaction in
                    transaction.changes.map { "\(transaction.transactionNumber) \($0.changeType) \($0.changedObjectID.primaryKey ?? 0)" }
                }
            }
            #expect(try kept("changeType == 2") == ["3 delete 2"])
            #expect(try kept("changeType == %d", HistoryChange.ChangeType.insert.rawValue) == ["1 insert 1", "1 insert 2"])
            #expect(try kept("transaction.author == 'import'") == ["1 insert 1", "1 insert 2"])
            #expect(try kept("transaction.author BEGINSWITH[c] 'AP'") == ["2 update 1", "3 delete 2"])
            #expect(try kept("changedObjectID == %@", first) == ["1 insert 1", "2 update 1"])
            #expect(try kept("changedObjectID IN %@", [second.objectID]) == ["1 insert 2", "3 delete 2"])
            #expect(try kept("'city' IN updatedProperties") == ["2 update 1"])
            #expect(try kept("updatedProperties CONTAINS 'name'") == ["2 update 1"])
            #expect(try kept("ANY updatedProperties BEGINSWITH[c] 'CI'") == ["2 update 1"])
            #expect(try kept("'state' IN updatedProperties").isEmpty)
            #expect(try kept("entityName == 'FailedBankInfo' AND NOT changeType == 1") == ["1 insert 1", "1 insert 2", "3 delete 2"])
            #expect(try kept("transaction.timestamp <= %@ AND transaction.transactionNumber > 2", Date()) == ["3 delete 2"])
            #expect(try kept("transaction.timestamp < %@", Date.distantPast).isEmpty)
            #expect(try store.fetchHistory(after: nil, matching: ObjectPredicate(format: "changeType == 1"), where: { _ in false }).isEmpty)

            for invalid in ["name == 'First'", "ANY transaction.author == 'app'", "changedObjectID.name == 'First'"] {
                #expect(performing: { try store.fetchHistory(after: nil, matching: ObjectPredicate(format: invalid)) }, throws: { error in
                    if case StoreError.history(.invalidPredicate) = error { true } else { false }
                })
            }
        }
    }

    @Test(arguments: TestedEngine.available) func deletingHistory_keepsTheTokenGiven_andExpiresOlderOnes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine, history: .enabled) { store throws in
            let context = store.newContext()
            var tokens: [HistoryToken] = []
            for number in 1...4 {
                _ = try Self.bank(context, "Bank \(number)")
                try context.save()
                tokens.append(try #require(try store.currentHistoryToken()))
            }
            try store.deleteHistory(before: tokens[2])
            #expect(try store.fetchHistory(after: nil).map(\.transactionNumber) == [3, 4])
            #expect(try store.fetchHistory(after: tokens[2]).map(\.transactionNumber) == [4])
            #expect(throws: StoreError.history(.expired(tokens[1]))) { try store.fetchHistory(after: tokens[1]) }
            let other = HistoryToken(storeIdentifier: "another store", transactionNumber: 3)
            #expect(throws: StoreError.history(.tokenOfAnotherStore(other))) { try store.fetchHistory(after: other) }
            try store.deleteHistory(before: Date.distantFuture)
            #expect(try store.fetchHistory(after: nil).isEmpty)
            #expect(throws: StoreError.history(.expired(tokens[3]))) { try store.fetchHistory(after: tokens[3]) }
            #expect(try TestStores.rows(#"SELECT count(*) FROM "ACHANGE""#, in: store) == [["0"]])
            // Numbers go on from where they were: a token never names two transactions.
            _ = try Self.bank(context, "Bank 5")
            try context.save()
            #expect(try store.fetchHistory(after: nil).map(\.transactionNumber) == [5])
        }
    }

    @Test func tracking_isKeptByDefault_andStopsOnlyWhenAsked() throws {
        let url = TestStores.newStoreURL()
        #expect(try !Self.newStore(history: .automatic).tracksHistory, "a new store records no history by default")
        #expect(throws: StoreError.history(.notTracked)) { try Self.newStore(history: .automatic).fetchHistory(after: nil) }
        do {
            let store = try Self.newStore(url)
            _ = try Self.bank(store.newContext(), "Kept")
            try store.newContext().save()
        }
        let reopened = try Self.newStore(url, history: .automatic)
        #expect(reopened.tracksHistory)
        let context = reopened.newContext()
        _ = try Self.bank(context, "Recorded")
        try context.save()
        #expect(try reopened.fetchHistory(after: nil).count == 1)

        let stopped = try Self.newStore(url, history: .disabledDeletingHistory)
        #expect(!stopped.tracksHistory)
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING')")
                + String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000")
        }
        #expect(tables.isEmpty)
        #expect(try !Self.newStore(url, history: .automatic).tracksHistory)
    }

    /// Another connection's save reaches this store's observers as the exact objects it changed,
    /// and a context merging it reads only those again.
    @Test func externalSaves_areDeliveredAsTheirChanges() throws {
        let url = TestStores.newStoreURL()
        let here = try Self.newStore(url)
        let there = try Self.newStore(url)
        let context = here.newContext()
        let local = try Self.bank(context, "Local")
        let unchanged = try Self.bank(context, "Unchanged")
        try context.save()
        _ = try here.checkForExternalChanges()

        let received = Locked<[ChangeSet]>([])
        here.addObserver { changes in received.withLock { $0.append(changes) } }
        let remote = there.newContext()
        let inserted = try Self.bank(remote, "Remote")
        let remoteLocal = try remote.existingObject(with: local.objectID)
        try remoteLocal.setValue("Local, renamed there", forKey: "name")
        try remote.save()
        // A save of this store is not delivered as an external one.
        _ = try Self.bank(context, "Mine")
        try context.save()
        received.withLock { $0.removeAll() }

        #expect(try here.checkForExternalChanges())
        let delivered = received.withLock { $0 }
        #expect(delivered.count == 1)
        #expect(delivered.first?.isExternalWrite == false)
        #expect(delivered.first?.inserted == [inserted.objectID])
        #expect(delivered.first?.updated == [local.objectID: ["name"]])
        let versionBefore = unchanged.version
        context.mergeChanges(from: delivered[0])
        #expect(local.value(forKey: "name") as? String == "Local, renamed there")
        #expect(unchanged.version == versionBefore)
        #expect(try !here.checkForExternalChanges())
    }

    @Test func mergingHistory_updatesTheObjectsNamed() throws {
        let url = TestStores.newStoreURL()
        let here = try Self.newStore(url)
        let context = here.newContext()
        let bank = try Self.bank(context, "Before")
        try context.save()
        let token = try here.currentHistoryToken()
        let remote = try Self.newStore(url).newContext()
        try remote.existingObject(with: bank.objectID).setValue("After", forKey: "name")
        try remote.save()
        context.mergeChanges(fromHistory: try here.fetchHistory(after: token))
        #expect(bank.value(forKey: "name") as? String == "After")
    }

    /// Another process saves and runs a batch request; this one receives each transaction as its
    /// exact changes, and a results controller merging them shows the other process's list.
    @Test func anotherProcess_savesAndBatchRequests_arriveAsTheirChanges() throws {
        let url = TestStores.newStoreURL()
        let store = try Self.newStore(url)
        let context = store.newContext()
        let byName = FetchRequest<ManagedObject>(entityName: "FailedBankInfo", sortDescriptors: [ObjectSortDescriptor("name")])
        let controller = FetchedResultsController(fetchRequest: byName, context: context)
        let delegate = RecordingDelegate<ManagedObject>()
        controller.delegate = delegate
        try controller.performFetch()
        let token = try store.currentHistoryToken()
        let delivered = ChangeSetCollector()
        store.addObserver { delivered.append($0) }

        let writer = Process()
        writer.executableURL = DurabilityTests.writer
        writer.arguments = ["history", url.path, TestStores.packageRoot.appendingPathComponent("Models/FailedBanks.xcdatamodeld").path]
        let errors = Pipe()
        writer.standardError = errors
        writer.standardOutput = Pipe()
        try writer.run()
        writer.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(writer.terminationStatus == 0, "the writer failed: \(message)")

        #expect(try store.checkForExternalChanges())
        let changes = delivered.all
        try #require(changes.count == 4, "three saves and a batch update")
        #expect(changes.allSatisfy { !$0.isExternalWrite })
        #expect(changes[0].inserted.count == 6 && changes[0].updated.isEmpty)
        #expect(Array(changes[1].updated.values) == [["state"]])
        #expect(changes[2].deleted.count == 2, "a bank and the details its Cascade rule deleted")
        #expect(changes[3].updated.count == 2 && changes[3].updated.values.allSatisfy { $0 == ["city"] })
        for changeSet in changes { context.mergeChanges(from: changeSet) }
        let shown = controller.fetchedObjects?.map { bank in
            ["name", "state", "city"].map { bank.value(forKey: $0) as? String ?? "-" }.joined(separator: " ")
        }
        #expect(shown == ["Bank 0 TX Springfield", "Bank 1 CA Springfield"])

        let transactions = try store.fetchHistory(after: token)
        #expect(transactions.map(\.author) == Array(repeating: "writer", count: 4))
        #expect(transactions.allSatisfy { $0.processID == "durability-writer" })
    }
}
