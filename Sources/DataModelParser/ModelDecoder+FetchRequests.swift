import DataModel

extension ModelDecoder {
    private static let fetchedPropertyAttributes: Set<String> = ["name", "optional", "syncable"]
    private static let fetchedRequestAttributes: Set<String> = ["name", "entity", "predicateString"]
    private static let templateAttributes: Set<String> = [
        "name", "entity", "predicateString", "resultType", "fetchLimit", "fetchBatchSize",
        "includeSubentities", "includePropertyValues", "includesPendingChanges", "returnObjectsAsFaults",
        "returnDistinctResults",
    ]

    mutating func decodeFetchedProperty(_ node: XMLNode) -> FetchedProperty {
        var unknown = UnknownXML()
        let name = required(node, "name")
        let element = "<fetchedProperty> '\(name)'"
        var request: FetchedProperty.Request?
        var userInfo = UserInfo()
        for child in node.children {
            switch child.name {
            case "fetchRequest" where request == nil:
                var requestUnknown = UnknownXML()
                var decoded = FetchedProperty.Request(
                    name: child.value("name") ?? "fetchedPropertyFetchRequest",
                    entityName: required(child, "entity"),
                    predicate: child.value("predicateString"),
                    location: child.location)
                for grandchild in child.children {
                    unknownElement(grandchild, in: "<fetchRequest> of \(element)", &requestUnknown)
                }
                collectUnknownAttributes(
                    child, known: Self.fetchedRequestAttributes, in: "<fetchRequest> of \(element)", &requestUnknown)
                decoded.unknownXML = keep(requestUnknown)
                request = decoded
            case "userInfo": userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            default: unknownElement(child, in: element, &unknown)
            }
        }
        if request == nil {
            error("\(element) has no <fetchRequest>", at: node.location)
        }
        var property = FetchedProperty(
            name: name,
            fetchRequest: request ?? FetchedProperty.Request(
                name: "fetchedPropertyFetchRequest", entityName: "", predicate: nil, location: node.location),
            location: node.location)
        property.isOptional = bool(node, "optional", &unknown)
        property.isSyncable = bool(node, "syncable", &unknown)
        property.userInfo = userInfo
        collectUnknownAttributes(node, known: Self.fetchedPropertyAttributes, in: element, &unknown)
        property.unknownXML = keep(unknown)
        return property
    }

    mutating func decodeTemplate(_ node: XMLNode) -> FetchRequestTemplate {
        var unknown = UnknownXML()
        var template = FetchRequestTemplate(
            name: required(node, "name"), entityName: required(node, "entity"),
            predicate: node.value("predicateString"), location: node.location)
        if let code = integer(node, "resultType", &unknown) {
            if let resultType = FetchRequestTemplate.ResultType(rawValue: code) {
                template.resultType = resultType
            } else {
                error("<fetchRequest> '\(template.name)' has resultType \(code); expected 0 (objects), 1 (object IDs), 2 (dictionaries) or 4 (count)", at: node.location)
                unknown.attributes.append(UnknownXML.Attribute(name: "resultType", value: String(code)))
            }
        }
        template.fetchLimit = integer(node, "fetchLimit", &unknown) ?? 0
        template.fetchBatchSize = integer(node, "fetchBatchSize", &unknown) ?? 0
        template.includesSubentities = bool(node, "includeSubentities", default: true, &unknown)
        template.includesPropertyValues = bool(node, "includePropertyValues", default: true, &unknown)
        template.includesPendingChanges = bool(node, "includesPendingChanges", default: true, &unknown)
        template.returnsObjectsAsFaults = bool(node, "returnObjectsAsFaults", default: true, &unknown)
        template.returnsDistinctResults = bool(node, "returnDistinctResults", &unknown)
        let element = "<fetchRequest> '\(template.name)'"
        for child in node.children { unknownElement(child, in: element, &unknown) }
        collectUnknownAttributes(node, known: Self.templateAttributes, in: element, &unknown)
        template.unknownXML = keep(unknown)
        return template
    }
}
