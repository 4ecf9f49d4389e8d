import DataModel

/// How a composite attribute is stored, as Core Data stores one: a column per leaf attribute, named
/// by the leaf alone (`author` → `person` gives `ZPERSON`, not `ZAUTHOR_PERSON`), typed and grouped
/// like a plain attribute of the leaf's type, placed and named after the entity's properties by the
/// composite's name, then in member order; a leaf whose name another column of the table has takes
/// the next collision suffix (`ZID1`). Seen in two SwiftData stores (*The Model Cache Format* §5.7);
/// a nested composite's leaves are named the same way, which no store examined shows.
package enum CompositeLayout {
    package struct Leaf {
        /// The nested attribute names below the entity's attribute, outermost first; the last
        /// names the column.
        package var path: [String]
        package var type: AttributeType
        /// The leaf's own name: its column's, before `Z`, uppercasing and any collision suffix.
        var name: String { path.last ?? "" }
    }

    package static func leaves(of attribute: Attribute, in model: Model) -> [Leaf] {
        var leaves: [Leaf] = []
        func walk(_ compositeName: String?, path: [String], depth: Int) {
            guard depth < 16, let name = compositeName, let composite = model.composite(named: name) else { return }
            for member in composite.attributes where member.isPersistent {
                let memberPath = path + [member.name]
                if member.type == .composite {
                    walk(member.compositeName, path: memberPath, depth: depth + 1)
                } else if ColumnType(member.type) != nil {
                    leaves.append(Leaf(path: memberPath, type: member.type))
                }
            }
        }
        walk(attribute.compositeName, path: [], depth: 0)
        return leaves
    }
}
