import ArgumentParser
import DataModel
import DataModelParser
import DataStore
import Foundation
import GeneratorCommand

/// `datamodel-gen inspect STORE --model MODEL`: the objects of a store, with typed values.
struct Inspect: AsyncParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
        case table
    }

    static let configuration = CommandConfiguration(
        abstract: "Prints the objects of a store (Core Data's included) with their typed values.",
        discussion: """
            Opens STORE read-only — the file is never changed — with the model that wrote it, and \
            prints every object of every entity, or of one entity (--entity) and its subentities. \
            Each object is listed under its own entity, so a subentity's objects are not repeated \
            under its parent.

            JSON (the default) is an object mapping each entity name to an array of objects: \
            'objectID' (Core Data's x-coredata:// URI) and one key per attribute — integers and \
            decimals as numbers, dates as ISO 8601 text, UUIDs as text, binary and transformable \
            data as Base64, missing values as null — and one key per relationship: a to-one as the \
            destination's object ID, a to-many as an array of object IDs (in order when ordered).

            The table format prints one table per entity for people, with long values shortened.

            Query an entity with Core Data's own predicate language: --predicate, --sort (repeat it \
            for more keys; add :desc to reverse), --limit and --offset select and order the objects \
            of --entity and its subentities, listed together in that order under the entity; \
            --count prints only their number. Key paths may go through to-one relationships \
            (details.closeDate) and use ANY/ALL/NONE, @count, @sum and SUBQUERY on to-many ones.

            --history prints the store's persistent history instead (a store Core Data wrote with \
            NSPersistentHistoryTrackingKey, or one opened here with history on): each transaction \
            with its token, time, author and context name, and its changes — insert, update (with \
            the properties changed) or delete (with the values of attributes marked Preserve After \
            Deletion), and the object. --after TOKEN starts after a transaction; --entity keeps the \
            changes of one entity and its subentities; --predicate keeps the changes it matches, \
            with the keys changeType (0 insert, 1 update, 2 delete), changedObjectID, entityName, \
            updatedProperties, tombstone.NAME and transaction.author, .contextName, .timestamp. \
            JSON is {"transactions": [{"token", "timestamp", "author", "contextName", "changes": \
            [{"changeType", "entity", "objectID", "updatedProperties"}]}]}, a delete's change with \
            "tombstone": {NAME: value} when it kept values.

            STORE may be a PostgreSQL store (copy-store writes one) given as a URL: \
            postgresql://user:password@host:port/database?sslmode=disable|prefer|require. It is \
            read in one snapshot and printed exactly as the same store in a SQLite file would be.

            Without --model, a store file is read with the model it carries: Core Data (since 2011) \
            and SwiftData keep the model that wrote a store in the store itself, so a store opens \
            without its app. With --model, the model should be the version that wrote the store. \
            Another version reads the store too when every table and column it needs is there and \
            it numbers the entities alike, with a warning naming the entities whose version hashes \
            differ; otherwise the error names the missing table or column. To look inside an iOS \
            app's store, copy its .sqlite file (with the -wal and -shm files beside it).

            Examples:
              datamodel-gen inspect Customer.sqlite --format table
              datamodel-gen inspect Books.sqlite --model Models/Books.xcdatamodeld
              datamodel-gen inspect Banks.sqlite --model Models/FailedBanks.xcdatamodeld --entity FailedBankInfo --format table
              datamodel-gen inspect App.sqlite --model App/Model.xcdatamodeld --model-version "Model 3" | jq '.Note | length'
              datamodel-gen inspect Banks.sqlite --model Models/FailedBanks.xcdatamodeld --entity FailedBankInfo \\
                --predicate "state IN {'CA', 'NY'} AND name CONTAINS[cd] 'first'" --sort details.closeDate:desc --limit 10
              datamodel-gen inspect Books.sqlite --model Models/Books.xcdatamodeld --entity Book --predicate "price < 10" --count
              datamodel-gen inspect App.sqlite --model App/Model.xcdatamodeld --history --after 41 --format table
              datamodel-gen inspect App.sqlite --model App/Model.xcdatamodeld --history --predicate "changeType == 2"
              datamodel-gen inspect postgresql://app@127.0.0.1:5432/app --model App/Model.xcdatamodeld --entity Note --count
            """
    )

    @Argument(help: "The store to read: a .sqlite file, or a PostgreSQL store's postgresql:// URL.")
    var store: String

    @Option(help: ArgumentHelp(
        "The model that wrote the store: an .xcdatamodeld, .xcdatamodel or 'contents' (default: the model a store file carries).",
        valueName: "model"))
    var model: String?

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp("The version of an .xcdatamodeld to use instead of its current one.", valueName: "name"))
    var modelVersion: String?

    @Option(help: ArgumentHelp("Print only this entity's objects (and its subentities').", valueName: "name"))
    var entity: String?

    @Option(help: "Output format: 'json' (for tools) or 'table' (for people).")
    var format: Format = .json

    @Option(help: ArgumentHelp(
        "Only the objects of --entity that match this predicate, e.g. \"price < 10 AND title BEGINSWITH[c] 'the'\"; with --history, only the changes it matches, e.g. \"changeType == 2\".",
        valueName: "format"))
    var predicate: String?

    @Option(help: ArgumentHelp("Order by this key path (through to-ones), ascending, or descending with ':desc'; repeatable.", valueName: "keypath[:desc]"))
    var sort: [String] = []

    @Option(help: ArgumentHelp("At most this many objects.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Skip this many objects first.", valueName: "n"))
    var offset: Int?

    @Flag(help: "Print only the number of matching objects.")
    var count = false

    @Flag(help: "Print the store's persistent history (transactions and their changes) instead of its objects.")
    var history = false

    @Option(help: ArgumentHelp("With --history: only the transactions after this token (a transaction number).", valueName: "token"))
    var after: Int64?

    /// Whether any query option is given: then `--entity` is queried as one fetch request.
    private var isQuery: Bool { predicate != nil || isObjectQuery }
    /// Whether an option that only objects have is given.
    private var isObjectQuery: Bool { !sort.isEmpty || limit != nil || offset != nil || count }

    func validate() throws {
        if history && isObjectQuery { throw ValidationError("--history lists transactions: --sort, --limit, --offset and --count query objects") }
        if isQuery && entity == nil && !history {
            throw ValidationError("--predicate, --sort, --limit, --offset and --count query one entity: add --entity NAME")
        }
        if after != nil && !history { throw ValidationError("--after reads the history: add --history") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    /// The fetch request the query options describe.
    private func request(for entity: String) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try parsedPredicate()
        request.sortDescriptors = sort.map { key in
            if key.hasSuffix(":desc") { return ObjectSortDescriptor(String(key.dropLast(5)), ascending: false) }
            return ObjectSortDescriptor(key.hasSuffix(":asc") ? String(key.dropLast(4)) : key)
        }
        request.fetchLimit = limit ?? 0
        request.fetchOffset = offset ?? 0
        return request
    }

    /// `--predicate`, parsed.
    private func parsedPredicate() throws -> ObjectPredicate? {
        guard let predicate else { return nil }
        do {
            return try ObjectPredicate(format: predicate)
        } catch {
            StandardError.write("error: --predicate: \(error)")
            throw ExitCode.failure
        }
    }

    func run() async throws {
        let location = try StoreArgument(store)
        guard let model else {
            if modelVersion != nil { throw ValidationError("--model-version chooses a version of the model --model names") }
            guard case .file(let url) = location else { throw ValidationError("a server's store is read with the model named by --model") }
            do {
                return try inspect(url, named: store, model: CarriedModel.of(url))
            } catch let error as StoreError {
                StandardError.write("\(store): error: \(error)")
                throw ExitCode.failure
            }
        }
        let loaded = try ModelOptions.load(model, version: modelVersion)
        // Only errors: the model's warnings are for its authors (`lint`), not for reading a store.
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        errors.forEach(StandardError.print)
        if !errors.isEmpty { throw ExitCode.failure }
        switch location {
        case .file(let url):
            try inspect(url, named: store, model: loaded.model)
        case .server(let url, let server):
            // Read in one snapshot, into a file the SQLite store then reads as it reads any: the
            // same objects, predicates and history, printed alike.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let snapshot = directory.appendingPathComponent("Snapshot.sqlite")
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try await server.snapshot(of: url, model: loaded.model, into: snapshot)
            } catch {
                StandardError.write("\(location.displayName(typed: store)): error: \(server.message(for: error))")
                throw ExitCode.failure
            }
            try inspect(snapshot, named: location.displayName(typed: store), model: loaded.model)
        }
    }

    /// Prints the store file at `url`, which messages call `store`.
    private func inspect(_ url: URL, named store: String, model: Model) throws {
        let persistentStore: PersistentStore
        do {
            persistentStore = try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: model))
        } catch {
            StandardError.write("\(store): error: \(error)")
            throw ExitCode.failure
        }
        if !persistentStore.differingEntities.isEmpty {
            StandardError.write(
                "\(store): warning: the store was written by another version of the model; every table and column this one reads is there, "
                    + "but the version hashes of these entities differ: \(persistentStore.differingEntities.joined(separator: ", "))")
        }
        var entities = persistentStore.entities
        if let entity {
            guard let selected = persistentStore.entity(named: entity) else {
                let names = entities.map(\.name).sorted().joined(separator: ", ")
                StandardError.write("\(store): error: the model has no entity '\(entity)'; its entities are \(names)")
                throw ExitCode.failure
            }
            entities = entities.filter { $0.isKind(of: selected) }
        }
        if history { return try printHistory(of: persistentStore, named: store) }
        let inspection: StoreInspection
        do {
            if let entity, isQuery {
                let request = try request(for: entity)
                if count {
                    print(try persistentStore.newContext().count(for: request))
                    return
                }
                inspection = try StoreInspection(store: persistentStore, request: request)
            } else {
                inspection = try StoreInspection(store: persistentStore, entities: entities)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardError.write("\(store): error: \(error)")
            throw ExitCode.failure
        }
        switch format {
        case .json: print(inspection.json())
        case .table: print(inspection.tables(), terminator: "")
        }
    }

    private func printHistory(of persistentStore: PersistentStore, named store: String) throws {
        let token = after.map { HistoryToken(storeIdentifier: persistentStore.identifier, transactionNumber: $0) }
        let changes = try parsedPredicate()
        let report: HistoryReport
        do {
            report = HistoryReport(try persistentStore.fetchHistory(after: token, entityNames: entity.map { [$0] }, matching: changes))
        } catch {
            StandardError.write("\(store): error: \(error)")
            throw ExitCode.failure
        }
        switch format {
        case .json: print(try report.json())
        case .table: print(report.text(), terminator: "")
        }
    }
}
