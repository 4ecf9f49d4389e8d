import DataModel

extension PersistentStore {
    /// The tables of the store's layout as it names them (join tables located in its catalog):
    /// what replacing the store drops.
    package var layoutTableNames: [String] {
        var names: [String] = []
        for entity in entities {
            names.append(entity.tableName)
            for relationship in entity.relationships {
                if case .joinTable(let table, _, _, _, _) = relationship.storage { names.append(table) }
            }
        }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
