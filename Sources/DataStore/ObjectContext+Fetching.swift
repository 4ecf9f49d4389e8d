import GRDB
import GRDBSQLite

/// Fetching objects: one query, rows materialised into registered objects (uniquing), objects
/// with unsaved changes kept as they are; pending inserts and deletes taken into account.
extension ObjectContext {
    /// The objects the request selects, saved ones in primary-key order, then matching unsaved
    /// inserts; deleted objects left out.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws(ContextError) -> [Result] {
        guard let entity = store.entity(named: request.entityName) else { throw .unknownEntity(request.entityName) }
        let range = request.includesSubentities ? entity.subtreeNumbers : entity.number...entity.number
        var sql = "SELECT \(entity.selectColumns) FROM \(entity.tableName) t0"
        if entity.subtreeNumbers.count > 1 || entity.number != entity.rootNumber || !request.includesSubentities {
            sql += range.count == 1 ? " WHERE t0.Z_ENT = \(range.lowerBound)" : " WHERE t0.Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        }
        sql += " ORDER BY t0.Z_PK"
        if request.fetchLimit > 0 || request.fetchOffset > 0 {
            sql += " LIMIT \(request.fetchLimit > 0 ? request.fetchLimit : -1) OFFSET \(request.fetchOffset)"
        }
        store.log(sql)
        var objects: [ManagedObject] = []
        do {
            try store.database.read { db in
                let statement = try db.cachedStatement(sql: sql)
                let rows = try Row.fetchCursor(statement)
                while try rows.next() != nil {
                    objects.append(materialize(statement.sqliteStatement))
                }
            }
        } catch {
            throw .database(message: "\(error)")
        }
        objects.removeAll { deleted.contains($0) }
        if request.fetchOffset == 0 {
            objects += inserted.objects.filter { range.contains($0.entity.number) && !deleted.contains($0) }
            if request.fetchLimit > 0, objects.count > request.fetchLimit { objects.removeLast(objects.count - request.fetchLimit) }
        }
        return objects.compactMap { $0 as? Result }
    }

    /// The number of objects the request would return.
    public func count<Result>(for request: FetchRequest<Result>) throws(ContextError) -> Int {
        var unlimited = request
        unlimited.fetchLimit = 0
        unlimited.fetchOffset = 0
        let all = try fetch(unlimited).count
        let afterOffset = max(0, all - request.fetchOffset)
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    /// The registered object for the statement's current row (filled if it was a fault), or a new one.
    func materialize(_ statement: SQLiteStatement) -> ManagedObject {
        let id = objectID(key: sqlite3_column_int64(statement, 0), entityNumber: Int(sqlite3_column_int64(statement, 1)))
        if let object = registeredObject(for: id) {
            if !object.isLoaded { fill(object, from: statement) }
            return object
        }
        let entity = store.entity(number: id.entityNumber) ?? store.entities[0]
        let object = entity.objectClass.init(ObjectCreation(entity: entity, objectID: id, context: self))
        fill(object, from: statement)
        register(object)
        return object
    }
}
