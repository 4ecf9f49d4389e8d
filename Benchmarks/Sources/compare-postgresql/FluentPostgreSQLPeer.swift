import FluentFixtures
import FluentKit
import FluentSQL
import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import StoreFixtures

/// Fluent on the PostgreSQL database of a store, with the workloads written as Fluent's
/// documentation writes them, on the same `FluentItem` model as the SQLite comparison.
final class FluentPostgreSQLPeer: Sendable {
    private let databases: Databases
    let database: any Database

    init(url: String) throws {
        databases = Databases(threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(.postgres(configuration: try SQLPostgresConfiguration(url: url)), as: .psql)
        database = databases.database(
            .psql, logger: Logger(label: "fluent", factory: { _ in SwiftLogNoOpLogHandler() }), on: MultiThreadedEventLoopGroup.singleton.any())!
    }

    func shutdown() async {
        await databases.shutdownAsync()
    }

    func fetchAll() async throws -> [FluentItem] {
        try await FluentItem.query(on: database).all()
    }

    /// Inserts the items in one transaction, a thousand to a statement, as the SQLite peer does.
    func insertAll() async throws {
        try await database.transaction { transaction in
            for start in stride(from: 0, to: StoreFixtures.objectCount, by: 1_000) {
                let items = (start..<min(start + 1_000, StoreFixtures.objectCount)).map(FluentItem.init(index:))
                try await items.create(on: transaction)
            }
            try await (transaction as! any SQLDatabase).raw(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = \#(bind: StoreFixtures.objectCount) WHERE "Z_ENT" = 1"#).run()
        }
    }
}
