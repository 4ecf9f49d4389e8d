import DataModel
import Foundation
import GRDB
import StoreMigration
import StoreSchema

/// Carries a store's persistent history across a migration, as Core Data does: each recorded
/// change names its entity by the destination's number, an update's changed-property bits are
/// encoded again for the destination's layout, and a delete's tombstone values move to the
/// destination's tombstone columns, by property name (renamed properties followed). Changes of
/// entities the destination no longer has are dropped: no object of theirs can be named any more.
enum HistoryMigration {
    /// How one source entity's changes become the destination's.
    private struct Move {
        var destination: EntityDescription
        var sourceBits: HistoryColumns
        var destinationBits: HistoryColumns
        /// For each destination tombstone column, the source column that holds its value.
        var tombstoneSources: [Int?]
        /// Whether the tombstone values stay where they are.
        var keepsTombstones: Bool
    }

    static func run(_ mapping: ModelMapping, in db: Database) throws {
        guard try db.tableExists(HistorySchema.changeTable) else { return }
        let sourceTombstoneColumns = try HistoryTables.tombstoneColumnCount(db)
        try HistoryTables.addTombstoneColumns(upTo: HistorySchema.tombstoneColumnCount(of: mapping.destination), db)
        let source = entities(of: mapping.source), destination = entities(of: mapping.destination)
        var moves: [Int: Move] = [:]
        for entity in destination {
            guard let sourceName = mapping.sourceEntities[entity.name], let old = source.first(where: { $0.name == sourceName }),
                  moves[old.number] == nil
            else { continue }
            let oldTombstones = HistoryTombstones(old).attributes.map { mapping.destinationName(ofSourceProperty: $0.name, in: entity.name) }
            let tombstoneSources = HistoryTombstones(entity).attributes.map { attribute in
                oldTombstones.firstIndex(of: attribute.name).flatMap { $0 < sourceTombstoneColumns ? $0 : nil }
            }
            moves[old.number] = Move(
                destination: entity, sourceBits: HistoryColumns(old), destinationBits: HistoryColumns(entity),
                tombstoneSources: tombstoneSources,
                keepsTombstones: tombstoneSources == tombstoneSources.indices.map { $0 } && oldTombstones.count == tombstoneSources.count)
        }
        let tombstones = HistorySchema.tombstoneColumnList(sourceTombstoneColumns)
        let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, ZENTITY, ZCHANGETYPE, ZCOLUMNS\(tombstones) FROM ACHANGE")
        let update = try db.makeStatement(sql: "UPDATE ACHANGE SET ZENTITY = ?, ZCOLUMNS = ? WHERE Z_PK = ?")
        let delete = try db.makeStatement(sql: "DELETE FROM ACHANGE WHERE Z_PK = ?")
        for row in rows {
            let key: Int64 = row[0], number: Int = row[1], type: Int = row[2], columns: Data? = row[3]
            guard let move = moves[number] else {
                try delete.execute(arguments: [key])
                continue
            }
            var migrated = columns
            if type == HistorySchema.ChangeType.update.rawValue, let columns {
                let names = move.sourceBits.properties(in: columns) ?? []
                let renamed = Set(names.compactMap { mapping.destinationName(ofSourceProperty: $0, in: move.destination.name) })
                migrated = move.destinationBits.data(for: renamed)
            }
            if move.destination.number != number || migrated != columns {
                try update.execute(arguments: [move.destination.number, migrated, key])
            }
            if type == HistorySchema.ChangeType.delete.rawValue, !move.keepsTombstones {
                try moveTombstone(of: row, key: key, to: move.tombstoneSources, clearing: sourceTombstoneColumns, db)
            }
        }
    }

    /// Rewrites a delete's tombstone columns in the destination's order.
    private static func moveTombstone(of row: Row, key: Int64, to sources: [Int?], clearing sourceColumns: Int, _ db: Database) throws {
        let count = max(sources.count, sourceColumns)
        let assignments = (0..<count).map { "\(HistorySchema.tombstoneColumn($0)) = ?" }.joined(separator: ", ")
        var values: [DatabaseValue] = (0..<count).map { index in
            guard index < sources.count, let source = sources[index] else { return .null }
            return row[4 + source]
        }
        values.append(key.databaseValue)
        try db.cachedStatement(sql: "UPDATE ACHANGE SET \(assignments) WHERE Z_PK = ?").execute(arguments: StatementArguments(values))
    }

    private static func entities(of model: Model) -> [EntityDescription] {
        EntityDescriptionBuilder(model: model, schema: StoreSchema(model: model), classes: []).build()
    }
}
