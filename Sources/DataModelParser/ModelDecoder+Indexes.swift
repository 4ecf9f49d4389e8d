import DataModel

extension ModelDecoder {
    enum FetchIndexXML: Int, XMLVocabulary {
        case name
        static let table = makeTable()
    }

    enum FetchIndexElementXML: Int, XMLVocabulary {
        case property, expression, expressionType, type, order
        static let table = makeTable()
    }

    /// The single `value` attribute of `<index>` and `<constraint>`.
    enum ValueXML: Int, XMLVocabulary {
        case value
        static let table = makeTable()
    }

    /// Elements that take no attributes at all.
    enum NoAttributes: Int, XMLVocabulary {
        case _none
        static let table = makeTable()
    }

    mutating func decodeFetchIndex(_ node: XMLNode) -> FetchIndex {
        var unknown = UnknownXML()
        let xml = XMLAttributes<FetchIndexXML>(node)
        let name = required(xml, .name)
        let element = "<fetchIndex> '\(name)'"
        var elements: [FetchIndex.Element] = []
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                unknownElement(child, in: element, &unknown)
                continue
            }
            // An element has no unknownXML of its own; the index keeps what its elements did not understand.
            let elementXML = XMLAttributes<FetchIndexElementXML>(child)
            var indexElement = FetchIndex.Element(property: elementXML[.property], location: location(child))
            indexElement.expression = elementXML[.expression]
            indexElement.expressionType = elementXML[.expressionType]
            if indexElement.property == nil && indexElement.expression == nil {
                error("<fetchIndexElement> of \(element) names neither a property nor an expression", at: location(child))
            }
            indexElement.kind = choice(elementXML, .type, &unknown) ?? .binary
            indexElement.order = choice(elementXML, .order, &unknown) ?? .ascending
            for grandchild in child.children { unknownElement(grandchild, in: "<fetchIndexElement>", &unknown) }
            collectUnknownAttributes(elementXML, in: "<fetchIndexElement>", &unknown)
            elements.append(indexElement)
        }
        collectUnknownAttributes(xml, in: element, &unknown)
        var index = FetchIndex(name: name, elements: elements, location: location(node))
        index.unknownXML = keep(unknown)
        return index
    }

    /// `<compoundIndexes>`: each `<compoundIndex>` lists `<index value="…"/>` elements.
    mutating func decodeCompoundIndexes(_ node: XMLNode, _ unknown: inout UnknownXML) -> [CompoundIndex] {
        decodeNameLists(node, listElement: "compoundIndex", itemElement: "index", &unknown)
            .map { CompoundIndex(properties: $0.names, location: $0.location) }
    }

    /// `<uniquenessConstraints>`: each `<uniquenessConstraint>` lists `<constraint value="…"/>` elements.
    mutating func decodeUniquenessConstraints(_ node: XMLNode, _ unknown: inout UnknownXML) -> [UniquenessConstraint] {
        decodeNameLists(node, listElement: "uniquenessConstraint", itemElement: "constraint", &unknown)
            .map { UniquenessConstraint(properties: $0.names, location: $0.location) }
    }

    /// The shape shared by compound indexes and uniqueness constraints: a list of lists of `value` names.
    private mutating func decodeNameLists(
        _ node: XMLNode, listElement: String, itemElement: String, _ unknown: inout UnknownXML
    ) -> [(names: [NameReference], location: SourceLocation)] {
        collectUnknownAttributes(XMLAttributes<NoAttributes>(node), in: "<\(node.name)>", &unknown)
        var lists: [(names: [NameReference], location: SourceLocation)] = []
        for list in node.children {
            guard list.name == listElement else {
                unknownElement(list, in: "<\(node.name)>", &unknown)
                continue
            }
            collectUnknownAttributes(XMLAttributes<NoAttributes>(list), in: "<\(listElement)>", &unknown)
            var names: [NameReference] = []
            for item in list.children {
                guard item.name == itemElement else {
                    unknownElement(item, in: "<\(listElement)>", &unknown)
                    continue
                }
                let xml = XMLAttributes<ValueXML>(item)
                collectUnknownAttributes(xml, in: "<\(itemElement)>", &unknown)
                for child in item.children { unknownElement(child, in: "<\(itemElement)>", &unknown) }
                names.append(NameReference(required(xml, .value), at: location(item)))
            }
            lists.append((names, location(list)))
        }
        return lists
    }
}
