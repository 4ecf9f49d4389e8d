import DataModel
import Foundation
import GRDB
import StoreMigration
import StoreSchema

/// Carries a store's persistent history across a migration, as Core Data does: each recorded
/// change names its entity by the destination's number, and an update's changed-property bits
/// are encoded again for the destination's layout, by property name (renamed properties
/// followed). Changes of entities the destination no longer has are dropped: no object of theirs
/// can be named any more.
enum HistoryMigration {
    static func run(_ mapping: ModelMapping, in db: Database) throws {
        guard try db.tableExists(HistorySchema.changeTable) else { return }
        let source = entities(of: mapping.source), destination = entities(of: mapping.destination)
        // Each source entity number with the destination entity it became, and both bit layouts.
        var moves: [Int: (destination: EntityDescription, sourceBits: HistoryColumns, destinationBits: HistoryColumns)] = [:]
        for entity in destination {
            guard let sourceName = mapping.sourceEntities[entity.name], let old = source.first(where: { $0.name == sourceName }),
                  moves[old.number] == nil
            else { continue }
            moves[old.number] = (entity, HistoryColumns(old), HistoryColumns(entity))
        }
        let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, ZENTITY, ZCHANGETYPE, ZCOLUMNS FROM ACHANGE")
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
        }
    }

    private static func entities(of model: Model) -> [EntityDescription] {
        EntityDescriptionBuilder(model: model, schema: StoreSchema(model: model), classes: []).build()
    }
}
