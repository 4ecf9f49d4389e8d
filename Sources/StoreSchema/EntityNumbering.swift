import DataModel

/// Core Data's entity numbers: a depth-first, pre-order walk of the inheritance forest, roots and
/// siblings sorted by name case-insensitively, starting at 1 (`Car` 1, `SportCar` 2, `Person` 3).
enum EntityNumbering {
    /// The layouts in number order, each with the position of its entity in `model.entities`.
    static func layouts(of model: Model) -> [(layout: EntityLayout, position: Int)] {
        let entities = model.entities
        // Works on positions and precomputed sort keys, so no entity is copied or lowercased twice.
        let keys = entities.map { ($0.name.lowercased(), $0.name) }
        var children = [[Int]](repeating: [], count: entities.count)
        var roots: [Int] = []
        for position in entities.indices {
            if let parent = entities[position].parentName.flatMap(model.position(ofEntityNamed:)) {
                children[parent].append(position)
            } else {
                roots.append(position)
            }
        }
        func sorted(_ positions: [Int]) -> [Int] {
            positions.sorted { keys[$0] < keys[$1] }
        }

        var result: [(layout: EntityLayout, position: Int)] = []
        result.reserveCapacity(entities.count)
        var visited = [Bool](repeating: false, count: entities.count)
        func visit(_ position: Int, parent: EntityLayout?) {
            guard !visited[position], model.position(ofEntityNamed: entities[position].name) == position else { return }
            visited[position] = true
            let name = entities[position].name
            let number = result.count + 1
            result.append((EntityLayout(
                name: name, number: number, superNumber: parent?.number ?? 0,
                rootName: parent?.rootName ?? name, tableName: parent?.tableName ?? ColumnNaming.columnName(name),
                subtreeNumbers: number...number, isAbstract: entities[position].isAbstract), position))
            let index = result.count - 1
            for child in sorted(children[position]) { visit(child, parent: result[index].layout) }
            result[index].layout.subtreeNumbers = number...result.count
        }
        for root in sorted(roots) { visit(root, parent: nil) }
        // Entities on an inheritance cycle have no root; a model with one is invalid, but number them anyway.
        for position in sorted(Array(entities.indices)) where !visited[position] { visit(position, parent: nil) }
        return result
    }
}
