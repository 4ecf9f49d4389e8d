import DataModel

extension ModelDecoder {
    enum EntityXML: Int, XMLVocabulary {
        case name, representedClassName, parentEntity, isAbstract, syncable, codeGenerationType, elementID
        case versionHashModifier
        static let table = makeTable()
    }

    mutating func decodeEntity(_ node: XMLNode) -> Entity {
        var unknown = UnknownXML()
        let xml = XMLAttributes<EntityXML>(node)
        var entity = Entity(name: required(xml, .name), location: location(node))
        entity.className = xml[.representedClassName].map(ClassName.init)
        entity.parentName = xml[.parentEntity]
        entity.isAbstract = bool(xml, .isAbstract, &unknown)
        entity.isSyncable = bool(xml, .syncable, &unknown)
        entity.codeGenerationType = choice(xml, .codeGenerationType, &unknown) ?? .manual
        entity.elementID = xml[.elementID]
        entity.versionHashModifier = xml[.versionHashModifier]
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
        collectUnknownAttributes(xml, in: element, &unknown)
        entity.unknownXML = keep(unknown)
        return entity
    }
}
