import DataModel

extension ModelDecoder {
    enum RelationshipXML: Int, XMLVocabulary {
        case name, destinationEntity, inverseName, inverseEntity, toMany, ordered, minCount, maxCount
        case deletionRule, optional, transient, indexed, syncable, elementID, renamingIdentifier
        case versionHashModifier
        static let table = makeTable()
    }

    mutating func decodeRelationship(_ node: XMLNode) -> Relationship {
        var unknown = UnknownXML()
        let xml = XMLAttributes<RelationshipXML>(node)
        var relationship = Relationship(
            name: required(xml, .name),
            destinationEntityName: required(xml, .destinationEntity),
            inverseName: xml[.inverseName],
            inverseEntityName: xml[.inverseEntity],
            location: location(node))
        relationship.minCount = integer(xml, .minCount, &unknown)
        relationship.maxCount = integer(xml, .maxCount, &unknown)
        // `toMany` is usually explicit; without it, a bound above one still means to-many.
        relationship.isToMany = optionalBool(xml, .toMany, &unknown) ?? ((relationship.maxCount ?? 1) > 1)
        relationship.isOrdered = bool(xml, .ordered, &unknown)
        relationship.deleteRule = choice(xml, .deletionRule, &unknown) ?? .nullify
        relationship.isOptional = bool(xml, .optional, &unknown)
        relationship.isTransient = bool(xml, .transient, &unknown)
        relationship.isIndexed = bool(xml, .indexed, &unknown)
        relationship.isSyncable = bool(xml, .syncable, &unknown)
        relationship.elementID = xml[.elementID]
        relationship.renamingIdentifier = xml[.renamingIdentifier]
        relationship.versionHashModifier = xml[.versionHashModifier]
        let element = "<relationship> '\(relationship.name)'"
        for child in node.children {
            if child.name == "userInfo" {
                relationship.userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(xml, in: element, &unknown)
        relationship.unknownXML = keep(unknown)
        return relationship
    }
}
