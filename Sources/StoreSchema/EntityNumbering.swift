import DataModel

/// Core Data's entity numbers: a depth-first, pre-order walk of the inheritance forest, roots and
/// siblings sorted by name case-insensitively, starting at 1 (`Car` 1, `SportCar` 2, `Person` 3).
enum EntityNumbering {
    static func layouts(of model: Model) -> [EntityLayout] {
        var layouts: [EntityLayout] = []
        var visited: Set<String> = []
        // Sort keys computed once per entity, not once per comparison.
        let keys = Dictionary(model.entities.map { ($0.name, $0.name.lowercased()) }, uniquingKeysWith: { first, _ in first })
        func sorted(_ entities: [Entity]) -> [Entity] {
            entities.sorted { (keys[$0.name]!, $0.name) < (keys[$1.name]!, $1.name) }
        }
        func visit(_ entity: Entity, parent: EntityLayout?) {
            guard visited.insert(entity.name).inserted else { return }
            let number = layouts.count + 1
            let tableName = parent?.tableName ?? "Z" + entity.name.uppercased()
            layouts.append(EntityLayout(
                name: entity.name, number: number, superNumber: parent?.number ?? 0,
                rootName: parent?.rootName ?? entity.name, tableName: tableName,
                subtreeNumbers: number...number, isAbstract: entity.isAbstract))
            let position = layouts.count - 1
            for child in sorted(model.subentities(of: entity)) { visit(child, parent: layouts[position]) }
            layouts[position].subtreeNumbers = number...layouts.count
        }
        let roots = model.entities.filter { entity in entity.parentName.map { !model.containsEntity(named: $0) } ?? true }
        for root in sorted(roots) { visit(root, parent: nil) }
        // Entities on an inheritance cycle have no root; a model with one is invalid, but number them anyway.
        for entity in sorted(model.entities) where !visited.contains(entity.name) { visit(entity, parent: nil) }
        return layouts
    }
}
