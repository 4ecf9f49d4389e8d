/// Faulting: loading an object's row on first access, and a to-many relationship's destinations on
/// first use.
extension ObjectContext {
    /// Loads `object`'s row. When the store has no row (deleted elsewhere), the object reads as
    /// unset values and a later save of it reports a conflict. When the store cannot be read (a
    /// server out of reach), this access reads unset values, and the object stays a fault: the
    /// next access reads the row, never taking the store's values for missing ones.
    func fulfillFault(_ object: ManagedObject) {
        // Changed after its row could not be read (version -1): the changes stay, and a save of
        // them reports a conflict, never reading the row over them.
        if object.version == -1, isUpdated(object) { return object.isLoaded = true }
        if parent != nil, fillFromParent(object) { return }
        if let row = prefetchedRows[object.objectID] { return row.fill(object) }
        do {
            if try !loadRow(of: object) { fillMissing(object) }
        } catch {
            let layout = object.entity.rowLayout
            object.setLoadedValues(AttributeValues(count: layout.attributes.count) { _ in .null }, layout.emptyRelationships)
            object.version = -1
            object.isLoaded = false
        }
    }

    /// Loads `object`'s row; `false` when the store has none.
    func loadRow(of object: ManagedObject) throws(ContextError) -> Bool {
        guard let key = object.objectID.primaryKey else { return false }
        let entity = object.entity
        let sql = SQLFragment(sql: entity.rowSelection, arguments: [key.databaseValue])
        var found = false
        try readEachRow(sql, in: store(of: object)) { row in
            var values = AttributeValues.Writer(valuesPerBuffer: 0)
            var relationships = SharedRelationshipValues.unshared
            entity.rowLayout.fill(object, from: row, into: &values, sharing: &relationships, context: self)
            found = true
        }
        return found
    }

    private func fillMissing(_ object: ManagedObject) {
        let layout = object.entity.rowLayout
        object.setLoadedValues(AttributeValues(count: layout.attributes.count) { _ in .null }, layout.emptyRelationships)
        object.version = -1
        object.isLoaded = true
    }

    /// The to-one destination's ID in `slot`.
    func destinationID(of object: ManagedObject, slot: Int) -> ObjectID? {
        object.fulfillIfNeeded()
        guard case .toOne(let id) = object.relationshipValue(atSlot: slot) else { return nil }
        return id
    }

    /// The to-many destinations' IDs in `slot`, loading them on first use.
    func destinationIDs(of object: ManagedObject, slot: Int) -> ObjectIDList {
        object.fulfillIfNeeded()
        switch object.relationshipValue(atSlot: slot) {
        case .toMany(let list): return list
        case .toOne, nil: return ObjectIDList()
        case .unloaded:
            let list = destinationsFromParent(of: object, slot: slot)
                ?? (try? loadDestinations(of: object, relationship: object.entity.relationships[slot])) ?? ObjectIDList()
            object.setReadRelationshipValue(.toMany(list), atSlot: slot)
            return list
        }
    }

    private func loadDestinations(of object: ManagedObject, relationship: RelationshipDescription) throws(ContextError) -> ObjectIDList {
        guard let key = object.objectID.primaryKey else { return ObjectIDList() }
        let store = store(of: object)
        let destinationTable = store.entity(number: relationship.destinationEntityNumber)?.tableName ?? ""
        guard let source = relationship.toManySource(destinationTable: destinationTable) else { return ObjectIDList() }
        let sql: SQL = "SELECT t0.\(.Z_PK), t0.\(.Z_ENT) \(source.from) WHERE \(source.owner) = ? ORDER BY \(source.order)"
        var list = ObjectIDList()
        try readEachRow(SQLFragment(sql: sql, arguments: [key.databaseValue]), in: store) { row in
            list.append(store.objectID(key: .permanent(row.int64(0)), entityNumber: Int(row.int64(1))))
        }
        return list
    }
}
