import DataStore
import Foundation
import GeneratedBooks
import GeneratedFailedBanks
import GeneratedProducts
import Testing

/// The results controller: the classic tutorial scenarios, sections and index titles, errors,
/// the two-phase batched SQL, changes from other contexts and processes, and the cache.
@Suite struct FetchedResultsControllerTests {
    /// A controller over books sorted by price, fetched, with a recording delegate.
    static func bookList(_ books: [(String, Double)], in store: PersistentStore) throws -> (ObjectContext, FetchedResultsController<Book>, RecordingDelegate<Book>) {
        let context = try FetchRequestTests.books(books, in: store)
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)]), context: context)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try controller.performFetch()
        return (context, controller, delegate)
    }

    static func titles(_ controller: FetchedResultsController<Book>) -> [String] {
        controller.fetchedObjects.map { $0.map(\.title) } ?? []
    }

    static let shelf: [(String, Double)] = [("Emma", 9), ("Persuasion", 12), ("Beloved", 15), ("Middlemarch", 20), ("Ulysses", 30)]

    @Test(arguments: TestedEngine.available) func bookList_deleteOne_reportsOneDelete(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            #expect(Self.titles(controller) == ["Emma", "Persuasion", "Beloved", "Middlemarch", "Ulysses"])
            context.delete(controller.object(at: ResultsIndexPath(item: 2, section: 0)))
            try context.save()
            #expect(delegate.events == ["will change", "delete [0, 2]", "did change"])
            #expect(Self.titles(controller) == ["Emma", "Persuasion", "Middlemarch", "Ulysses"])
        }
    }

    @Test(arguments: TestedEngine.available) func bookList_deleteOneInsertTwo_reportsInsertsAtTheirNewIndexPaths(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            context.delete(controller.object(at: ResultsIndexPath(item: 1, section: 0)))
            for (title, price) in [("Dracula", 5.0), ("Orlando", 25.0)] {
                let book = Book(context: context)
                book.title = title
                book.price = price
            }
            try context.save()
            #expect(delegate.events == ["will change", "delete [0, 1]", "insert [0, 0]", "insert [0, 4]", "did change"])
            #expect(Self.titles(controller) == ["Dracula", "Emma", "Beloved", "Middlemarch", "Orlando", "Ulysses"])
        }
    }

    /// An insert reported by `save()` names the object by the temporary ID it had then (the
    /// report comes before the write); after the save that ID still finds the saved object.
    @Test(arguments: TestedEngine.available) func insertReportedBySave_findsItsObjectAfterTheSave(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            let book = Book(context: context)
            book.title = "Dracula"
            book.price = 5
            try context.save()
            let insert = try #require(delegate.changes.first { $0.type == .insert })
            #expect(insert.objectID.isTemporaryID && !book.objectID.isTemporaryID)
            #expect(try context.existingObject(with: insert.objectID) === book)
            #expect(context.object(with: insert.objectID) === book)
            #expect(context.registeredObject(for: insert.objectID) === book)
            #expect(try context.existingObject(with: insert.objectID).value(forKey: "title") as? String == "Dracula")
            #expect(controller.indexPath(forObject: book) == insert.newIndexPath)
        }
    }

    @Test(arguments: TestedEngine.available) func bookList_priceChange_isAMoveWhenTheOrderChangesAndAnUpdateWhenNot(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            let emma = controller.object(at: ResultsIndexPath(item: 0, section: 0))
            emma.price = 10
            try context.save()
            #expect(delegate.lastChanges == ["update [0, 0]"])
            emma.price = 22
            try context.save()
            #expect(delegate.lastChanges == ["move [0, 0] -> [0, 3]"])
            #expect(Self.titles(controller) == ["Persuasion", "Beloved", "Middlemarch", "Emma", "Ulysses"])
            // An attribute outside the sort is an update too.
            emma.title = "Emma (annotated)"
            context.processPendingChanges()
            #expect(delegate.lastChanges == ["update [0, 3]"])
            #expect(delegate.reports == 3)
        }
    }

    @Test(arguments: TestedEngine.available) func unsavedChanges_areReportedByProcessPendingChanges(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            let book = Book(context: context)
            book.title = "Dracula"
            book.price = 13
            #expect(delegate.reports == 0)
            context.processPendingChanges()
            #expect(delegate.lastChanges == ["insert [0, 2]"])
            // Saving gives the book its permanent ID without another report; it stays in its place.
            try context.save()
            #expect(delegate.reports == 1)
            #expect(controller.indexPath(forObject: book) == ResultsIndexPath(item: 2, section: 0))
            book.price = 1
            context.processPendingChanges()
            #expect(delegate.lastChanges == ["move [0, 2] -> [0, 0]"])
            context.rollback()
            #expect(delegate.lastChanges == ["move [0, 0] -> [0, 2]"])
        }
    }

    @Test(arguments: TestedEngine.available) func productsWithFavourites_includeSubentitiesOrNot(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.products, on: engine) { store throws in
            let context = store.newContext()
            for (name, price, favourite) in [("Kettle", 30.0, false), ("Lamp", 45.0, true), ("Mug", 8.0, false), ("Rug", 90.0, true)] {
                let product: Products = favourite ? FavoriteProducts(context: context) : Products(context: context)
                product.name = name
                product.price = price
            }
            try context.save()
            var request = Products.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor("price")]
            let all = FetchedResultsController(fetchRequest: request, context: context)
            let allDelegate = RecordingDelegate<Products>()
            all.delegate = allDelegate
            try all.performFetch()
            request.includesSubentities = false
            let plain = FetchedResultsController(fetchRequest: request, context: context)
            let plainDelegate = RecordingDelegate<Products>()
            plain.delegate = plainDelegate
            try plain.performFetch()
            #expect(all.fetchedObjects?.map(\.name) == ["Mug", "Kettle", "Lamp", "Rug"])
            #expect(all.fetchedObjects?[2] is FavoriteProducts)
            #expect(plain.fetchedObjects?.map(\.name) == ["Mug", "Kettle"])

            let favourite = FavoriteProducts(context: context)
            favourite.name = "Vase"
            favourite.price = 20
            let product = Products(context: context)
            product.name = "Bowl"
            product.price = 12
            try context.save()
            #expect(allDelegate.lastChanges == ["insert [0, 1]", "insert [0, 2]"])
            #expect(plainDelegate.lastChanges == ["insert [0, 1]"])
            #expect(all.fetchedObjects?.map(\.name) == ["Mug", "Bowl", "Vase", "Kettle", "Lamp", "Rug"])
        }
    }

    /// A FailedBanks store: banks in a few states with close dates.
    static func banks(_ count: Int, store: PersistentStore) throws {
        let context = store.newContext()
        let states = ["CA", "GA", "IL", "FL", "TX"]
        for index in 0..<count {
            let bank = FailedBankInfo(context: context)
            bank.name = "Bank \(index)"
            bank.city = "City \(index % 7)"
            bank.state = states[index * 7 % states.count]
            let details = FailedBankDetails(context: context)
            details.closeDate = Date(timeIntervalSinceReferenceDate: Double(index * 37 % count) * 86_400)
            bank.details = details
        }
        try context.save()
    }

    static func bankRequest() -> FetchRequest<FailedBankInfo> {
        var request = FailedBankInfo.fetchRequest()
        request.sortDescriptors = [ObjectSortDescriptor("state"), ObjectSortDescriptor("details.closeDate", ascending: false)]
        request.fetchBatchSize = 20
        return request
    }

    @Test(arguments: TestedEngine.available) func failedBanks_opensWithKeysAndSectionLengthsThenLoadsBatches(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            try Self.banks(100, store: store)
            let context = store.newContext()
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            let controller = FetchedResultsController(fetchRequest: Self.bankRequest(), context: context, sectionNameKeyPath: "state")
            try controller.performFetch()
            let join = "FROM ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t0.ZDETAILS = t1.Z_PK"
            #expect(lines.statements == [
                "DataStore: sql: SELECT 0, t0.Z_PK \(join) ORDER BY t0.ZSTATE, t1.ZCLOSEDATE DESC, t0.Z_PK",
                "DataStore: sql: SELECT t0.ZSTATE, COUNT(*) \(join) GROUP BY t0.ZSTATE ORDER BY t0.ZSTATE",
            ])
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["CA", "FL", "GA", "IL", "TX"])
            #expect(sections.map(\.numberOfObjects) == [20, 20, 20, 20, 20])
            #expect(controller.sectionIndexTitles == ["C", "F", "G", "I", "T"])
            #expect(controller.section(forSectionIndexTitle: "G", at: 2) == 2)
            #expect(controller.section(forSectionIndexTitle: "H", at: 3) == 2)
            lines.removeAll()
            let bank = controller.object(at: ResultsIndexPath(item: 3, section: 1))
            #expect(bank.state == "FL")
            let batchQueries = lines.statements
            #expect(batchQueries.count == 1)
            #expect(batchQueries.first?.hasSuffix("\(join) WHERE t0.Z_PK IN (\(Array(repeating: "?", count: 20).joined(separator: ","))) ORDER BY t0.ZSTATE, t1.ZCLOSEDATE DESC, t0.Z_PK LIMIT 20") == true)
            // The section objects are the state's banks, latest close date first.
            let dates = sections[1].objects.map { $0.details?.closeDate ?? .distantPast }
            #expect(dates == dates.sorted(by: >))
            #expect(controller.indexPath(forObject: bank) == ResultsIndexPath(item: 3, section: 1))
        }
    }

    @Test(arguments: TestedEngine.available) func changeBehindAToOneKeyPath_movesTheRow(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            try Self.banks(10, store: store)
            let context = store.newContext()
            var request = FailedBankInfo.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor("details.closeDate", ascending: false)]
            let controller = FetchedResultsController(fetchRequest: request, context: context)
            let delegate = RecordingDelegate<FailedBankInfo>()
            controller.delegate = delegate
            try controller.performFetch()
            let last = controller.object(at: ResultsIndexPath(item: 9, section: 0))
            last.details?.closeDate = Date(timeIntervalSinceReferenceDate: 1e9)
            try context.save()
            #expect(delegate.lastChanges == ["move [0, 9] -> [0, 0]"])
            #expect(controller.fetchedObjects?.first === last)
            // The related object's change affects only the rows that reach it.
            last.details?.zip = 12345
            try context.save()
            #expect(delegate.lastChanges == ["update [0, 0]"])
        }
    }

    @Test(arguments: TestedEngine.available) func sectionChanges_insertAndDeleteSections(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            try Self.banks(10, store: store)
            let context = store.newContext()
            let controller = FetchedResultsController(fetchRequest: Self.bankRequest(), context: context, sectionNameKeyPath: "state")
            let delegate = RecordingDelegate<FailedBankInfo>()
            delegate.titles = ["WY": "Wyoming"]
            controller.delegate = delegate
            try controller.performFetch()
            let before = try #require(controller.sections).map(\.name)
            #expect(before == ["CA", "FL", "GA", "IL", "TX"])
            // Every Texas bank moves to Wyoming: section 4 goes, a new section 4 comes.
            for bank in try #require(controller.sections)[4].objects { bank.state = "WY" }
            try context.save()
            #expect(delegate.sectionChanges.map(\.description) == [#"delete section 4 "TX""#, #"insert section 4 "WY""#])
            #expect(delegate.changes.allSatisfy { $0.type == .move && $0.newIndexPath?.section == 4 })
            #expect(controller.sectionIndexTitles == ["C", "F", "G", "I", "Wyoming"])
            #expect(controller.sectionIndexTitle(forSectionName: "WY") == "Wyoming")
        }
    }

    @Test(arguments: TestedEngine.available) func limitAndOffset_stayHonouredWhileLive(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, _, _) = try Self.bookList(Self.shelf, in: store)
            var request = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)])
            request.fetchOffset = 1
            request.fetchLimit = 3
            let controller = FetchedResultsController(fetchRequest: request, context: context)
            let delegate = RecordingDelegate<Book>()
            controller.delegate = delegate
            try controller.performFetch()
            #expect(Self.titles(controller) == ["Persuasion", "Beloved", "Middlemarch"])
            let cheap = Book(context: context)
            cheap.title = "Dracula"
            cheap.price = 1
            try context.save()
            // Dracula takes the first place, so Emma slides into the window and Middlemarch out.
            #expect(Self.titles(controller) == ["Emma", "Persuasion", "Beloved"])
            #expect(delegate.lastChanges == ["delete [0, 2]", "insert [0, 0]"])
        }
    }

    @Test(arguments: TestedEngine.available) func invalidRequests_areTypedErrors(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, _, _) = try Self.bookList(Self.shelf, in: store)
            let unsorted = FetchedResultsController(fetchRequest: FetchRequest<Book>(), context: context)
            #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Book")) { try unsorted.performFetch() }
            let sorted = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("price"), ObjectSortDescriptor("title")])
            let misplaced = FetchedResultsController(fetchRequest: sorted, context: context, sectionNameKeyPath: "title")
            #expect(throws: FetchedResultsError.sectionKeyPathNotFirstSortKey(sectionKeyPath: "title", sortKeyPaths: ["price", "title"])) {
                try misplaced.performFetch()
            }
            let loose = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title", comparator: .caseInsensitiveCompare)])
            #expect(throws: FetchedResultsError.sectionSortNotExact(sectionKeyPath: "title", comparator: .caseInsensitiveCompare)) {
                try FetchedResultsController(fetchRequest: loose, context: context, sectionNameKeyPath: "title").performFetch()
            }
            let unknown = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("pages")])
            #expect(throws: FetchedResultsError.self) { try FetchedResultsController(fetchRequest: unknown, context: context).performFetch() }
            // A section key missing from the sort is prepended.
            let prepended = FetchedResultsController(fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("price")]), context: context, sectionNameKeyPath: "title")
            #expect(prepended.fetchRequest.sortDescriptors.map(\.keyPath) == ["title", "price"])
            try prepended.performFetch()
            #expect(prepended.sections?.map(\.name) == ["Beloved", "Emma", "Middlemarch", "Persuasion", "Ulysses"])
        }
    }

    @Test(arguments: TestedEngine.available) func otherContextsSaves_areSeenWhenMerged(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, delegate) = try Self.bookList(Self.shelf, in: store)
            let other = context.store.newContext()
            let book = Book(context: other)
            book.title = "Dracula"
            book.price = 10
            let saved = ChangeSetCollector()
            context.store.addObserver { saved.append($0) }
            try other.save()
            for changes in saved.all { context.mergeChanges(from: changes) }
            #expect(delegate.lastChanges == ["insert [0, 1]"])
            #expect(Self.titles(controller) == ["Emma", "Dracula", "Persuasion", "Beloved", "Middlemarch", "Ulysses"])
        }
    }

    /// The shelf in a store, listed by price by a controller, and then changed through another
    /// store on the same file (standing for another process): a title edited, a price lowered so
    /// the book moves, a book deleted.
    static func shelfChangedByAnotherConnection(history: HistoryTracking) throws
        -> (PersistentStore, ObjectContext, FetchedResultsController<Book>, RecordingDelegate<Book>)
    {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.books, history: history)
        let setup = store.newContext()
        for (title, price) in shelf {
            let book = Book(context: setup)
            book.title = title
            book.price = price
        }
        try setup.save()
        let context = store.newContext()
        let byPrice = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)])
        let controller = FetchedResultsController(fetchRequest: byPrice, context: context)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try controller.performFetch()
        _ = controller.object(at: ResultsIndexPath(item: 0, section: 0))
        let other = try PersistentStore(url: url, model: TestStores.books).newContext()
        let books = try other.fetch(byPrice)
        books[0].title = "Emma (annotated)"
        books[4].price = 1
        other.delete(books[2])
        try other.save()
        return (store, context, controller, delegate)
    }

    @Test func writesByAnotherConnection_areSeenAfterACheck() throws {
        let (store, context, controller, delegate) = try Self.shelfChangedByAnotherConnection(history: .automatic)
        store.addObserver { _ in }
        #expect(try store.checkForExternalChanges())
        context.mergeChanges(from: ChangeSet(isExternalWrite: true))
        #expect(Self.titles(controller) == ["Ulysses", "Emma (annotated)", "Persuasion", "Middlemarch"])
        #expect(delegate.lastChanges.contains("update [0, 0]"))
        #expect(delegate.lastChanges.contains("delete [0, 2]"))
        #expect(try !store.checkForExternalChanges())
    }

    /// With persistent history, another connection's save arrives as its exact changes: the list
    /// moves, updates and deletes those rows alone, as for a save in this process.
    @Test func writesByAnotherConnection_withHistory_arriveAsTheirChanges() throws {
        let (store, context, controller, delegate) = try Self.shelfChangedByAnotherConnection(history: .enabled)
        let delivered = ChangeSetCollector()
        store.addObserver { delivered.append($0) }
        #expect(try store.checkForExternalChanges())
        let changes = delivered.all
        #expect(changes.count == 1 && !changes[0].isExternalWrite)
        context.mergeChanges(from: changes[0])
        #expect(Self.titles(controller) == ["Ulysses", "Emma (annotated)", "Persuasion", "Middlemarch"])
        #expect(delegate.lastChanges.sorted() == ["delete [0, 2]", "move [0, 4] -> [0, 0]", "update [0, 0]"])
    }

    /// The one folder of this run's section caches: tests running at once each set it, so they
    /// must all set the same one.
    static let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("DataStoreCaches-\(UUID().uuidString)")

    @Test(arguments: TestedEngine.available) func sectionCache_skipsTheGroupByWhileTheStoreIsUnchanged(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            FetchedResultsCache.directory = Self.cacheDirectory
            try Self.banks(50, store: store)
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            func open() throws -> (FetchedResultsController<FailedBankInfo>, groupBy: Bool) {
                lines.removeAll()
                let controller = FetchedResultsController(fetchRequest: Self.bankRequest(), context: store.newContext(), sectionNameKeyPath: "state", cacheName: "Banks")
                try controller.performFetch()
                return (controller, lines.all.contains { $0.contains("GROUP BY") })
            }
            let (first, firstGrouped) = try open()
            let (second, secondGrouped) = try open()
            // Other processes write a server's store unseen: its sections are always read.
            guard engine == .sqlite else {
                #expect(firstGrouped && secondGrouped)
                return
            }
            #expect(firstGrouped && !secondGrouped)
            #expect(second.sections?.map(\.name) == first.sections?.map(\.name))
            #expect(second.sections?.map(\.numberOfObjects) == first.sections?.map(\.numberOfObjects))
            // Any write to the store invalidates the cache.
            second.object(at: ResultsIndexPath(item: 0, section: 0)).state = "AK"
            try second.context.save()
            let (third, thirdGrouped) = try open()
            #expect(thirdGrouped)
            #expect(third.sections?.first?.name == "AK")
            // A different request under the same name does not use it either.
            let (_, fourthGrouped) = try open()
            #expect(!fourthGrouped)
            var other = Self.bankRequest()
            other.predicate = try ObjectPredicate(format: "city != %@", "City 1")
            lines.removeAll()
            try FetchedResultsController(fetchRequest: other, context: store.newContext(), sectionNameKeyPath: "state", cacheName: "Banks").performFetch()
            #expect(lines.all.contains { $0.contains("GROUP BY") })
            FetchedResultsController<FailedBankInfo>.deleteCache(withName: "Banks")
            let (_, afterDelete) = try open()
            #expect(afterDelete)
        }
    }

    /// A cache name reused for another request: the sections are computed again, and the store
    /// warns once per name, through its log.
    // Server stores keep no section cache.
    @Test(arguments: [TestedEngine.sqlite]) func sectionCache_underAChangedRequest_warnsOnce(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            FetchedResultsCache.directory = Self.cacheDirectory
            let name = "Banks-\(UUID().uuidString)"
            try Self.banks(20, store: store)
            let log = store.recordSQL(level: 1)
            func open(_ predicate: String?) throws -> [String] {
                var request = Self.bankRequest()
                request.predicate = try predicate.map { try ObjectPredicate(format: $0) }
                let controller = FetchedResultsController(fetchRequest: request, context: store.newContext(), sectionNameKeyPath: "state", cacheName: name)
                try controller.performFetch()
                return log.entries.compactMap { if case .warning(let message) = $0 { message } else { nil } }
            }
            #expect(try open(nil).isEmpty)
            #expect(try open(nil).isEmpty, "the same request uses its cache")
            let warnings = try open("city != 'City 1'")
            #expect(warnings.count == 1 && warnings[0].hasPrefix("the section cache '\(name)' was made for another fetch request"))
            #expect(try open(nil).count == 1, "once per name")
            #expect(log.entries.contains { $0.description.hasPrefix("DataStore: warning: the section cache") })
        }
    }

    @Test(arguments: TestedEngine.available) func genericDelegate_keepsSwiftsResult(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, controller, _) = try Self.bookList(Self.shelf, in: store)
            let delegate = OutcomeDelegate<Book>()
            controller.delegate = delegate
            context.delete(controller.object(at: ResultsIndexPath(item: 0, section: 0)))
            try context.save()
            #expect(delegate.outcomes.count == 1)
            if case .success(let id)? = delegate.outcomes.first { #expect(id.entityName == "Book") } else { Issue.record("no outcome") }
        }
    }

    /// Without a section key path the list has one section, named "", even when nothing matches.
    @Test(arguments: TestedEngine.available) func listWithoutSections_hasOneSection_evenWhenEmpty(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, _, _) = try Self.bookList([], in: store)
            let empty = FetchedResultsController(fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)]), context: context)
            try empty.performFetch()
            #expect(empty.sections?.map(\.name) == [""])
            #expect(empty.sections?.map(\.numberOfObjects) == [0])
            #expect(empty.snapshot.sections.map(\.name) == [""])
        }
    }

    @Test(arguments: TestedEngine.available) func snapshots_asAnAsyncSequence(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine, awaiting: { store in
            let (context, controller, _) = try Self.bookList(Self.shelf, in: store)
            controller.delegate = nil
            var snapshots = controller.snapshots.makeAsyncIterator()
            let first = try #require(await snapshots.next())
            #expect(first.numberOfItems == 5)
            let emma = controller.object(at: ResultsIndexPath(item: 0, section: 0))
            emma.price = 99
            try await context.save()
            let second = try #require(await snapshots.next())
            #expect(second.itemIdentifiers == first.itemIdentifiers.dropFirst() + [emma.objectID])
            emma.title = "Emma (annotated)"
            context.processPendingChanges()
            let third = try #require(await snapshots.next())
            #expect(third.itemIdentifiers == second.itemIdentifiers)
            #expect(third.reloadedItemIdentifiers == [emma.objectID])
        })
    }
}


/// A generic delegate: the protocol's associated type is `Object`, so `Result` here is still
/// Swift's (it would not compile were the associated type called `Result`).
final class OutcomeDelegate<Object: ManagedObject>: FetchedResultsControllerDelegate {
    var outcomes: [Result<ObjectID, any Error>] = []

    func controller(_ controller: FetchedResultsController<Object>, didChange change: FetchedResultsChange) {
        outcomes.append(.success(change.objectID))
    }
}
