import DataModel

extension ModelDecoder {
    enum AttributeXML: Int, XMLVocabulary {
        case name, attributeType, optional, transient, indexed, syncable, derived, derivationExpression
        case defaultValueString, defaultDateTimeInterval, minValueString, maxValueString, minDateTimeInterval
        case maxDateTimeInterval, regularExpressionString, usesScalarValueType, valueTransformerName
        case customClassName, composite, allowsExternalBinaryDataStorage, spotlightIndexingEnabled
        case storedInTruthFile, preserveAfterDeletion, allowsCloudEncryption, elementID, renamingIdentifier
        case versionHashModifier
        static let table = makeTable()
    }

    mutating func decodeAttribute(_ node: XMLNode) -> Attribute {
        var unknown = UnknownXML()
        let xml = XMLAttributes<AttributeXML>(node)
        var attribute = Attribute(
            name: required(xml, .name),
            type: choice(xml, .attributeType, &unknown) ?? .undefined,
            location: location(node))
        attribute.isOptional = bool(xml, .optional, &unknown)
        attribute.isTransient = bool(xml, .transient, &unknown)
        attribute.isIndexed = bool(xml, .indexed, &unknown)
        attribute.isSyncable = bool(xml, .syncable, &unknown)
        attribute.isDerived = bool(xml, .derived, &unknown)
        attribute.derivationExpression = xml[.derivationExpression]
        attribute.defaultValue = xml[.defaultValueString]
        attribute.defaultDateTimeInterval = number(xml, .defaultDateTimeInterval, &unknown)
        attribute.minValue = xml[.minValueString]
        attribute.maxValue = xml[.maxValueString]
        attribute.minDateTimeInterval = number(xml, .minDateTimeInterval, &unknown)
        attribute.maxDateTimeInterval = number(xml, .maxDateTimeInterval, &unknown)
        attribute.regularExpression = xml[.regularExpressionString]
        attribute.usesScalarValueType = optionalBool(xml, .usesScalarValueType, &unknown)
        attribute.valueTransformerName = xml[.valueTransformerName]
        attribute.customClassName = xml[.customClassName]
        attribute.compositeName = xml[.composite]
        attribute.allowsExternalBinaryDataStorage = bool(xml, .allowsExternalBinaryDataStorage, &unknown)
        attribute.isIndexedBySpotlight = bool(xml, .spotlightIndexingEnabled, &unknown)
        attribute.isStoredInExternalRecord = bool(xml, .storedInTruthFile, &unknown)
        attribute.preservesValueInHistoryOnDeletion = bool(xml, .preserveAfterDeletion, &unknown)
        attribute.allowsCloudEncryption = bool(xml, .allowsCloudEncryption, &unknown)
        attribute.elementID = xml[.elementID]
        attribute.renamingIdentifier = xml[.renamingIdentifier]
        attribute.versionHashModifier = xml[.versionHashModifier]
        if !node.children.isEmpty {
            let element = "<attribute> '\(attribute.name)'"
            for child in node.children {
                if child.name == "userInfo" {
                    attribute.userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
                } else {
                    unknownElement(child, in: element, &unknown)
                }
            }
        }
        collectUnknownAttributes(xml, in: "<attribute> '\(attribute.name)'", &unknown)
        attribute.unknownXML = keep(unknown)
        return attribute
    }
}
