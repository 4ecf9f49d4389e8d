import DataModel

extension ModelDecoder {
    private static let attributeAttributes: Set<String> = [
        "name", "attributeType", "optional", "transient", "indexed", "syncable", "derived",
        "derivationExpression", "defaultValueString", "defaultDateTimeInterval", "minValueString",
        "maxValueString", "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString",
        "usesScalarValueType", "valueTransformerName", "customClassName", "composite",
        "allowsExternalBinaryDataStorage", "spotlightIndexingEnabled", "storedInTruthFile",
        "preserveAfterDeletion", "allowsCloudEncryption", "elementID", "renamingIdentifier",
        "versionHashModifier",
    ]

    mutating func decodeAttribute(_ node: XMLNode) -> Attribute {
        var unknown = UnknownXML()
        var attribute = Attribute(
            name: required(node, "name"),
            type: choice(node, "attributeType", &unknown) ?? .undefined,
            location: node.location)
        attribute.isOptional = bool(node, "optional", &unknown)
        attribute.isTransient = bool(node, "transient", &unknown)
        attribute.isIndexed = bool(node, "indexed", &unknown)
        attribute.isSyncable = bool(node, "syncable", &unknown)
        attribute.isDerived = bool(node, "derived", &unknown)
        attribute.derivationExpression = node.value("derivationExpression")
        attribute.defaultValue = node.value("defaultValueString")
        attribute.defaultDateTimeInterval = number(node, "defaultDateTimeInterval", &unknown)
        attribute.minValue = node.value("minValueString")
        attribute.maxValue = node.value("maxValueString")
        attribute.minDateTimeInterval = number(node, "minDateTimeInterval", &unknown)
        attribute.maxDateTimeInterval = number(node, "maxDateTimeInterval", &unknown)
        attribute.regularExpression = node.value("regularExpressionString")
        attribute.usesScalarValueType = optionalBool(node, "usesScalarValueType", &unknown)
        attribute.valueTransformerName = node.value("valueTransformerName")
        attribute.customClassName = node.value("customClassName")
        attribute.compositeName = node.value("composite")
        attribute.allowsExternalBinaryDataStorage = bool(node, "allowsExternalBinaryDataStorage", &unknown)
        attribute.isIndexedBySpotlight = bool(node, "spotlightIndexingEnabled", &unknown)
        attribute.isStoredInExternalRecord = bool(node, "storedInTruthFile", &unknown)
        attribute.preservesValueInHistoryOnDeletion = bool(node, "preserveAfterDeletion", &unknown)
        attribute.allowsCloudEncryption = bool(node, "allowsCloudEncryption", &unknown)
        attribute.elementID = node.value("elementID")
        attribute.renamingIdentifier = node.value("renamingIdentifier")
        attribute.versionHashModifier = node.value("versionHashModifier")
        let element = "<attribute> '\(attribute.name)'"
        for child in node.children {
            if child.name == "userInfo" {
                attribute.userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(node, known: Self.attributeAttributes, in: element, &unknown)
        attribute.unknownXML = keep(unknown)
        return attribute
    }
}
