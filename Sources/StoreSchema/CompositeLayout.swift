import DataModel

/// How DataModelKit stores a composite attribute: one column per leaf attribute, named after the
/// path to it joined with `_` (`location` → `ShelfSpot.position` → `x` gives `ZLOCATION_POSITION_X`).
///
/// Core Data's own layout differs: the two SwiftData stores examined so far name each element's
/// column by the element alone, with a numeric suffix on a clash (*The Model Cache Format* §5.7).
/// Everything that depends on this choice goes through this type, so it changes in one place.
package enum CompositeLayout {
    package struct Leaf {
        /// `location_position_x`: the column name before `Z` and uppercasing.
        var name: String
        /// The nested attribute names below the entity's attribute, outermost first.
        package var path: [String]
        package var type: AttributeType
    }

    package static func leaves(of attribute: Attribute, in model: Model) -> [Leaf] {
        var leaves: [Leaf] = []
        func walk(_ compositeName: String?, prefix: String, path: [String], depth: Int) {
            guard depth < 16, let name = compositeName, let composite = model.composite(named: name) else { return }
            for member in composite.attributes where member.isPersistent {
                let memberPath = path + [member.name]
                let memberName = prefix + "_" + member.name
                if member.type == .composite {
                    walk(member.compositeName, prefix: memberName, path: memberPath, depth: depth + 1)
                } else if ColumnType(member.type) != nil {
                    leaves.append(Leaf(name: memberName, path: memberPath, type: member.type))
                }
            }
        }
        walk(attribute.compositeName, prefix: attribute.name, path: [], depth: 0)
        return leaves
    }
}
