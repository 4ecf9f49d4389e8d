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

    /// Moves the history of the store `database` holds, whose tables `snapshot` lists.
    static func run(_ mapping: ModelMapping, in database: MigrationDatabase, snapshot: StoreSnapshot) throws {
        guard let changeColumns = snapshot.columns[HistorySchema.changeTable] else { return }
        let sourceTombstoneColumns = (0...).first { !changeColumns.contains(HistorySchema.tombstoneColumn($0)) } ?? 0
        for index in sourceTombstoneColumns..<max(HistorySchema.tombstoneColumnCount(of: mapping.destination), sourceTombstoneColumns) {
            try database.execute("ALTER TABLE \(.ACHANGE) ADD COLUMN \(name: HistorySchema.tombstoneColumn(index)) \(database.dialect.binaryType)", [])
        }
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
        let tombstones = SQL.tombstoneColumns(sourceTombstoneColumns)
        let rows = try database.rows("SELECT \(.Z_PK), \(.ZENTITY), \(.ZCHANGETYPE), \(.ZCOLUMNS)\(tombstones) FROM \(.ACHANGE)", [])
        let update: SQL = "UPDATE \(.ACHANGE) SET \(.ZENTITY) = ?, \(.ZCOLUMNS) = ? WHERE \(.Z_PK) = ?"
        let delete: SQL = "DELETE FROM \(.ACHANGE) WHERE \(.Z_PK) = ?"
        try rows.forEach { row in
            let key = row.int64(0), number = Int(row.int64(1)), type = Int(row.int64(2))
            let columns: Data? = if case .blob(let data) = row.databaseValue(3).storage { data } else { nil }
            guard let move = moves[number] else {
                try database.execute(delete, [key.databaseValue])
                return
            }
            var migrated = columns
            if type == HistorySchema.ChangeType.update.rawValue, let columns {
                let names = move.sourceBits.properties(in: columns) ?? []
                let renamed = Set(names.compactMap { mapping.destinationName(ofSourceProperty: $0, in: move.destination.name) })
                migrated = move.destinationBits.data(for: renamed)
            }
            if move.destination.number != number || migrated != columns {
                try database.execute(update, [move.destination.number.databaseValue, migrated.databaseValue, key.databaseValue])
            }
            if type == HistorySchema.ChangeType.delete.rawValue, !move.keepsTombstones {
                let values = (0..<sourceTombstoneColumns).map { row.databaseValue(Int32(4 + $0)) }
                try moveTombstone(of: values, key: key, to: move.tombstoneSources, in: database)
            }
        }
    }

    /// Rewrites a delete's tombstone columns (whose values were `values`) in the destination's order.
    private static func moveTombstone(of values: [DatabaseValue], key: Int64, to sources: [Int?], in database: MigrationDatabase) throws {
        let count = max(sources.count, values.count)
        let assignments = (0..<count).map { "\(name: HistorySchema.tombstoneColumn($0)) = ?" as SQL }.joined(separator: ", ")
        var moved: [DatabaseValue] = (0..<count).map { index in
            guard index < sources.count, let source = sources[index] else { return .null }
            return values[source]
        }
        moved.append(key.databaseValue)
        try database.execute("UPDATE \(.ACHANGE) SET \(assignments) WHERE \(.Z_PK) = ?", moved)
    }

    private static func entities(of model: Model) -> [EntityDescription] {
        EntityDescriptionBuilder(model: model, schema: StoreSchema(model: model), classes: []).build()
    }
}
