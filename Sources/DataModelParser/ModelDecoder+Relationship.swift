import DataModel

extension ModelDecoder {
    private static let relationshipAttributes: Set<String> = [
        "name", "destinationEntity", "inverseName", "inverseEntity", "toMany", "ordered", "minCount",
        "maxCount", "deletionRule", "optional", "transient", "indexed", "syncable", "elementID",
        "renamingIdentifier", "versionHashModifier",
    ]

    mutating func decodeRelationship(_ node: XMLNode) -> Relationship {
        var unknown = UnknownXML()
        var relationship = Relationship(
            name: required(node, "name"),
            destinationEntityName: required(node, "destinationEntity"),
            inverseName: node.value("inverseName"),
            inverseEntityName: node.value("inverseEntity"),
            location: node.location)
        relationship.minCount = integer(node, "minCount", &unknown)
        relationship.maxCount = integer(node, "maxCount", &unknown)
        // `toMany` is usually explicit; without it, a bound above one still means to-many.
        relationship.isToMany = optionalBool(node, "toMany", &unknown) ?? ((relationship.maxCount ?? 1) > 1)
        relationship.isOrdered = bool(node, "ordered", &unknown)
        relationship.deleteRule = choice(node, "deletionRule", &unknown) ?? .nullify
        relationship.isOptional = bool(node, "optional", &unknown)
        relationship.isTransient = bool(node, "transient", &unknown)
        relationship.isIndexed = bool(node, "indexed", &unknown)
        relationship.isSyncable = bool(node, "syncable", &unknown)
        relationship.elementID = node.value("elementID")
        relationship.renamingIdentifier = node.value("renamingIdentifier")
        relationship.versionHashModifier = node.value("versionHashModifier")
        let element = "<relationship> '\(relationship.name)'"
        for child in node.children {
            if child.name == "userInfo" {
                relationship.userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(node, known: Self.relationshipAttributes, in: element, &unknown)
        relationship.unknownXML = keep(unknown)
        return relationship
    }
}
