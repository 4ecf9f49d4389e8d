import DataModel
import Foundation
import GRDB
import StoreSchema

extension PersistentStore {
    /// A model rebuilt from the catalog of the store at `url`, for a store the oldest Core Data
    /// releases wrote without a model cache (see `CatalogModel`): partial, with what it cannot
    /// tell in `unrecovered`. Enough to open the store read only and read every row; use the
    /// store's own model (`modelForStore(at:)`) or the app's wherever there is one.
    public static func catalogModelForStore(at url: URL) throws(StoreError) -> (model: Model, unrecovered: [String]) {
        _ = try metadataForStore(at: url)
        let catalog: StoreCatalog
        do {
            catalog = try readOnlyDatabase(at: url).read { db in try Self.catalog(of: db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(message: "reading the catalog of \(url.path): \(error)")
        }
        return CatalogModel.build(catalog, path: url.lastPathComponent)
    }

    /// The store's entities, tables, indexed columns, and where its key columns point.
    private static func catalog(of db: Database) throws -> StoreCatalog {
        guard try db.tableExists("Z_PRIMARYKEY") else { throw StoreError.notAStore(reason: "the database has no Z_PRIMARYKEY") }
        let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT").map { row in
            StoreCatalog.Entity(number: row[0], name: row[1], superNumber: row[2] ?? 0)
        }
        var tables: [String: [StoreCatalog.Column]] = [:]
        var indexed: [String: Set<String>] = [:]
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'") {
            tables[table] = try db.columns(in: table).map { StoreCatalog.Column(name: $0.name, type: $0.type) }
            for index in try db.indexes(on: table) where index.columns.count == 1 {
                indexed[table, default: []].insert(index.columns[0])
            }
        }
        var catalog = StoreCatalog(entities: entities, tables: tables, indexedColumns: indexed, keyDestinations: [:])
        let roots = entities.filter { $0.superNumber == 0 }.filter { tables["Z" + $0.name.uppercased()] != nil }
        for (table, column) in catalog.keyColumnCandidates {
            let keys = try Int64.fetchAll(db, sql: "SELECT DISTINCT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) IS NOT NULL")
            guard !keys.isEmpty else {
                catalog.emptyColumns.insert("\(table).\(column)")
                continue
            }
            // The entities whose rows hold every key: the column's name decides between several.
            var holders: [String] = []
            for root in roots {
                // Integers, written into the statement as they are.
                let found = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM \(("Z" + root.name.uppercased()).quotedDatabaseIdentifier) WHERE Z_PK IN (\(keys.map(String.init).joined(separator: ",")))") ?? 0
                if found == keys.count { holders.append(root.name) }
            }
            let named = holders.first { "Z" + $0.uppercased() == column }
            if let destination = named ?? (holders.count == 1 ? holders[0] : nil) {
                catalog.keyDestinations["\(table).\(column)"] = destination
            }
        }
        return catalog
    }
}
