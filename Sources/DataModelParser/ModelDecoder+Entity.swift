import DataModel

extension ModelDecoder {
    private static let entityAttributes: Set<String> = [
        "name", "representedClassName", "parentEntity", "isAbstract", "syncable", "codeGenerationType",
        "elementID", "versionHashModifier",
    ]

    mutating func decodeEntity(_ node: XMLNode) -> Entity {
        var unknown = UnknownXML()
        var entity = Entity(name: required(node, "name"), location: node.location)
        entity.className = node.value("representedClassName").map(ClassName.init)
        entity.parentName = node.value("parentEntity")
        entity.isAbstract = bool(node, "isAbstract", &unknown)
        entity.isSyncable = bool(node, "syncable", &unknown)
        entity.codeGenerationType = choice(node, "codeGenerationType", &unknown) ?? .manual
        entity.elementID = node.value("elementID")
        entity.versionHashModifier = node.value("versionHashModifier")
        let element = "<entity> '\(entity.name)'"
        for child in node.children {
            switch child.name {
            case "attribute": entity.attributes.append(decodeAttribute(child))
            case "relationship": entity.relationships.append(decodeRelationship(child))
            case "fetchedProperty": entity.fetchedProperties.append(decodeFetchedProperty(child))
            case "fetchIndex": entity.fetchIndexes.append(decodeFetchIndex(child))
            case "compoundIndexes": entity.compoundIndexes.append(contentsOf: decodeCompoundIndexes(child, &unknown))
            case "uniquenessConstraints":
                entity.uniquenessConstraints.append(contentsOf: decodeUniquenessConstraints(child, &unknown))
            case "userInfo": entity.userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            default: unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(node, known: Self.entityAttributes, in: element, &unknown)
        entity.unknownXML = keep(unknown)
        return entity
    }
}
