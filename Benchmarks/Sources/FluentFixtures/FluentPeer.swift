import DataStore
import FluentKit
import FluentSQL
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO
import StoreFixtures

/// Fluent on one store file, with the benchmarks' workloads written as Fluent's documentation
/// writes them. Fluent is asynchronous: its SQLite driver runs each query on a thread pool.
public final class FluentPeer: Sendable {
    private let threads = NIOThreadPool(numberOfThreads: 1)
    private let databases: Databases
    public let database: any Database

    /// Fluent on the store at `url`. The driver keeps one connection per event loop, and there is
    /// one loop, so the predicate function installed here is on every query's connection.
    public init(url: URL) async throws {
        threads.start()
        databases = Databases(threadPool: threads, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(.sqlite(.file(url.path)), as: .sqlite)
        database = databases.database(logger: Logger(label: "fluent", factory: { _ in SwiftLogNoOpLogHandler() }), on: MultiThreadedEventLoopGroup.singleton.any())!
        let function = SQLiteCustomFunction("CONTAINSCD", argumentCount: 2, pure: true) { values in
            guard let value = values[0].string, let pattern = values[1].string else { return 0 }
            return ComparisonOperator.contains.matches(value, pattern, options: PredicateFixture.options, patternIsFolded: true) ? 1 : 0
        }
        try await (database as! any SQLiteDatabase).withConnection { connection in
            try await connection.install(customFunction: function)
        }
    }

    public func shutdown() async throws {
        await databases.shutdownAsync()
        try await threads.shutdownGracefully()
    }

    public func fetchAll() async throws -> [FluentItem] {
        try await FluentItem.query(on: database).sort(\.$id).all()
    }

    public func predicateFetch() async throws -> [FluentItem] {
        try await FluentItem.query(on: database)
            .filter(.sql(embed: "CONTAINSCD(\(ident: "ZNAME"), \(bind: PredicateFixture.foldedPattern))"))
            .filter(\.$price < Double(PredicateFixture.maximumPrice))
            .sort(\.$id)
            .all()
    }

    /// Inserts the items in one transaction, a thousand to a statement (SQLite's limit on bound
    /// values rules out one statement for all).
    public func insertAll() async throws {
        try await database.transaction { transaction in
            for start in stride(from: 0, to: StoreFixtures.objectCount, by: 1_000) {
                let items = (start..<min(start + 1_000, StoreFixtures.objectCount)).map(FluentItem.init(index:))
                try await items.create(on: transaction)
            }
            try await (transaction as! any SQLDatabase).raw("UPDATE Z_PRIMARYKEY SET Z_MAX = \(bind: StoreFixtures.objectCount) WHERE Z_ENT = 1").run()
        }
    }

    /// Changes the price of every tenth item and saves them in one transaction.
    public func updateChanged(_ items: [FluentItem]) async throws {
        try await database.transaction { transaction in
            for item in items where ChangeFixture.isChanged(item.id!) {
                item.price = ChangeFixture.updatedPrice(item.id!)
                item.version += 1
                try await item.update(on: transaction)
            }
        }
    }

    /// Deletes every tenth item in one transaction.
    public func deleteChanged(_ items: [FluentItem]) async throws {
        try await database.transaction { transaction in
            for item in items where ChangeFixture.isChanged(item.id!) {
                try await item.delete(on: transaction)
            }
        }
    }

    /// The employees with their departments, eager-loaded as Fluent does relationships.
    public func traversal() async throws -> Int {
        try await FluentEmployee.query(on: database).with(\.$department).sort(\.$id).all()
            .reduce(0) { $0 + ($1.department?.name?.utf8.count ?? 0) }
    }
}
