import DataModel

extension ModelDecoder {
    private static let fetchIndexElementAttributes: Set<String> = [
        "property", "expression", "expressionType", "type", "order",
    ]

    mutating func decodeFetchIndex(_ node: XMLNode) -> FetchIndex {
        var unknown = UnknownXML()
        let name = required(node, "name")
        let element = "<fetchIndex> '\(name)'"
        var elements: [FetchIndex.Element] = []
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                unknownElement(child, in: element, &unknown)
                continue
            }
            var elementUnknown = UnknownXML()
            var indexElement = FetchIndex.Element(property: child.value("property"), location: child.location)
            indexElement.expression = child.value("expression")
            indexElement.expressionType = child.value("expressionType")
            if indexElement.property == nil && indexElement.expression == nil {
                error("<fetchIndexElement> of \(element) names neither a property nor an expression", at: child.location)
            }
            indexElement.kind = choice(child, "type", &elementUnknown) ?? .binary
            indexElement.order = choice(child, "order", &elementUnknown) ?? .ascending
            for grandchild in child.children {
                unknownElement(grandchild, in: "<fetchIndexElement>", &elementUnknown)
            }
            collectUnknownAttributes(
                child, known: Self.fetchIndexElementAttributes, in: "<fetchIndexElement>", &elementUnknown)
            // An element has no unknownXML of its own; the index keeps what its elements did not understand.
            unknown.attributes.append(contentsOf: elementUnknown.attributes)
            unknown.elements.append(contentsOf: elementUnknown.elements)
            elements.append(indexElement)
        }
        collectUnknownAttributes(node, known: ["name"], in: element, &unknown)
        var index = FetchIndex(name: name, elements: elements, location: node.location)
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
        collectUnknownAttributes(node, known: [], in: "<\(node.name)>", &unknown)
        var lists: [(names: [NameReference], location: SourceLocation)] = []
        for list in node.children {
            guard list.name == listElement else {
                unknownElement(list, in: "<\(node.name)>", &unknown)
                continue
            }
            collectUnknownAttributes(list, known: [], in: "<\(listElement)>", &unknown)
            var names: [NameReference] = []
            for item in list.children {
                guard item.name == itemElement else {
                    unknownElement(item, in: "<\(listElement)>", &unknown)
                    continue
                }
                collectUnknownAttributes(item, known: ["value"], in: "<\(itemElement)>", &unknown)
                for child in item.children { unknownElement(child, in: "<\(itemElement)>", &unknown) }
                names.append(NameReference(required(item, "value"), at: item.location))
            }
            lists.append((names, list.location))
        }
        return lists
    }
}
