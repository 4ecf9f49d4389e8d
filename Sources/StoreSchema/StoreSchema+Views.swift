import DataModel

/// Read-only views that present each entity the way the model names it, for people who query a
/// store with SQL tools: `SELECT * FROM "Book"` instead of decoding `ZBOOK`, `Z_ENT` and dates.
extension StoreSchema {
    /// One `CREATE VIEW` per entity: its rows and those of its subentities (a `Z_ENT` range), the
    /// primary key as `id`, every stored attribute (inherited ones included) under its model name,
    /// dates as ISO 8601 text, UUIDs as hexadecimal text, and to-one relationships as the
    /// destination's `id`.
    public func viewStatements(for model: Model) -> [String] {
        entities.compactMap { layout -> String? in
            guard let entity = model.entity(named: layout.name),
                  let table = tables.first(where: { $0.name == layout.tableName })
            else { return nil }
            var selections = ["Z_PK AS id"]
            for owner in (model.parentChain(of: entity).reversed() + [entity]) {
                for column in table.columns {
                    switch column.role {
                    case .attribute(owner.name, let name):
                        let type = owner.attribute(named: name)?.type
                        selections.append("\(readable(column.name, type)) AS \(quoted(name))")
                    case .compositeMember(owner.name, let name, let path):
                        selections.append("\(identifier(column.name)) AS \(quoted(([name] + path).joined(separator: "_")))")
                    case .foreignKey(owner.name, let name):
                        selections.append("\(identifier(column.name)) AS \(quoted(name))")
                    default:
                        break
                    }
                }
            }
            let filter = layout.subtreeNumbers.count == entities.filter { $0.tableName == layout.tableName }.count
                ? "" : " WHERE Z_ENT BETWEEN \(layout.subtreeNumbers.lowerBound) AND \(layout.subtreeNumbers.upperBound)"
            return "CREATE VIEW \(quoted(layout.name)) AS SELECT \(selections.joined(separator: ", ")) FROM \(identifier(table.name))\(filter);"
        }
    }

    private func readable(_ column: String, _ type: AttributeType?) -> String {
        let name = identifier(column)
        switch type {
        case .date?: return "strftime('%Y-%m-%dT%H:%M:%fZ', \(name) + 978307200, 'unixepoch')"
        case .uuid?: return "lower(hex(\(name)))"
        default: return name
        }
    }
}
