import DataModel

extension ModelDecoder {
    enum FetchedPropertyXML: Int, XMLVocabulary {
        case name, optional, syncable
        static let table = makeTable()
    }

    enum FetchedRequestXML: Int, XMLVocabulary {
        case name, entity, predicateString
        static let table = makeTable()
    }

    enum TemplateXML: Int, XMLVocabulary {
        case name, entity, predicateString, resultType, fetchLimit, fetchBatchSize, includeSubentities
        case includePropertyValues, includesPendingChanges, returnObjectsAsFaults, returnDistinctResults
        static let table = makeTable()
    }

    mutating func decodeFetchedProperty(_ node: XMLNode) -> FetchedProperty {
        var unknown = UnknownXML()
        let xml = XMLAttributes<FetchedPropertyXML>(node)
        let name = required(xml, .name)
        let element = "<fetchedProperty> '\(name)'"
        var request: FetchedProperty.Request?
        var userInfo = UserInfo()
        for child in node.children {
            switch child.name {
            case "fetchRequest" where request == nil:
                request = decodeFetchedPropertyRequest(child, in: element)
            case "userInfo": userInfo.entries.append(contentsOf: decodeUserInfo(child).entries)
            default: unknownElement(child, in: element, &unknown)
            }
        }
        if request == nil {
            error("\(element) has no <fetchRequest>", at: location(node))
        }
        var property = FetchedProperty(
            name: name,
            fetchRequest: request ?? FetchedProperty.Request(
                name: "fetchedPropertyFetchRequest", entityName: "", predicate: nil, location: location(node)),
            location: location(node))
        property.isOptional = bool(xml, .optional, &unknown)
        property.isSyncable = bool(xml, .syncable, &unknown)
        property.userInfo = userInfo
        collectUnknownAttributes(xml, in: element, &unknown)
        property.unknownXML = keep(unknown)
        return property
    }

    private mutating func decodeFetchedPropertyRequest(_ node: XMLNode, in owner: String) -> FetchedProperty.Request {
        var unknown = UnknownXML()
        let xml = XMLAttributes<FetchedRequestXML>(node)
        var request = FetchedProperty.Request(
            name: xml[.name] ?? "fetchedPropertyFetchRequest",
            entityName: required(xml, .entity),
            predicate: xml[.predicateString],
            location: location(node))
        for child in node.children { unknownElement(child, in: "<fetchRequest> of \(owner)", &unknown) }
        collectUnknownAttributes(xml, in: "<fetchRequest> of \(owner)", &unknown)
        request.unknownXML = keep(unknown)
        return request
    }

    mutating func decodeTemplate(_ node: XMLNode) -> FetchRequestTemplate {
        var unknown = UnknownXML()
        let xml = XMLAttributes<TemplateXML>(node)
        var template = FetchRequestTemplate(
            name: required(xml, .name), entityName: required(xml, .entity),
            predicate: xml[.predicateString], location: location(node))
        if let code = integer(xml, .resultType, &unknown) {
            if let resultType = FetchRequestTemplate.ResultType(rawValue: code) {
                template.resultType = resultType
            } else {
                error("<fetchRequest> '\(template.name)' has resultType \(code); expected 0 (objects), 1 (object IDs), 2 (dictionaries) or 4 (count)", at: location(node))
                unknown.attributes.append(UnknownXML.Attribute(name: "resultType", value: String(code)))
            }
        }
        template.fetchLimit = integer(xml, .fetchLimit, &unknown) ?? 0
        template.fetchBatchSize = integer(xml, .fetchBatchSize, &unknown) ?? 0
        template.includesSubentities = bool(xml, .includeSubentities, default: true, &unknown)
        template.includesPropertyValues = bool(xml, .includePropertyValues, default: true, &unknown)
        template.includesPendingChanges = bool(xml, .includesPendingChanges, default: true, &unknown)
        template.returnsObjectsAsFaults = bool(xml, .returnObjectsAsFaults, default: true, &unknown)
        template.returnsDistinctResults = bool(xml, .returnDistinctResults, &unknown)
        let element = "<fetchRequest> '\(template.name)'"
        for child in node.children { unknownElement(child, in: element, &unknown) }
        collectUnknownAttributes(xml, in: element, &unknown)
        template.unknownXML = keep(unknown)
        return template
    }
}
