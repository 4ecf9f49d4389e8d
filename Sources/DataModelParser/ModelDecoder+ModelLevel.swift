import DataModel

/// Model-level elements other than entities and templates, and `userInfo` everywhere.
extension ModelDecoder {
    mutating func decodeConfiguration(_ node: XMLNode) -> Configuration {
        var unknown = UnknownXML()
        let name = required(node, "name")
        let element = "<configuration> '\(name)'"
        var members: [NameReference] = []
        for child in node.children {
            if child.name == "memberEntity" {
                collectUnknownAttributes(child, known: ["name"], in: "<memberEntity>", &unknown)
                for grandchild in child.children { unknownElement(grandchild, in: "<memberEntity>", &unknown) }
                members.append(NameReference(required(child, "name"), at: child.location))
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(node, known: ["name"], in: element, &unknown)
        var configuration = Configuration(name: name, memberEntities: members, location: node.location)
        configuration.unknownXML = keep(unknown)
        return configuration
    }

    mutating func decodeComposite(_ node: XMLNode) -> Composite {
        var unknown = UnknownXML()
        let name = required(node, "name")
        let element = "<composite> '\(name)'"
        var attributes: [Attribute] = []
        for child in node.children {
            if child.name == "attribute" {
                attributes.append(decodeAttribute(child))
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(node, known: ["name"], in: element, &unknown)
        var composite = Composite(name: name, attributes: attributes, location: node.location)
        composite.unknownXML = keep(unknown)
        return composite
    }

    /// `<userInfo>` entries. Stray content is reported; an entry without a key is an error.
    mutating func decodeUserInfo(_ node: XMLNode) -> UserInfo {
        var ignored = UnknownXML()
        collectUnknownAttributes(node, known: [], in: "<userInfo>", &ignored)
        var userInfo = UserInfo()
        for child in node.children {
            guard child.name == "entry" else {
                unknownElement(child, in: "<userInfo>", &ignored)
                continue
            }
            collectUnknownAttributes(child, known: ["key", "value"], in: "<entry>", &ignored)
            userInfo.entries.append(
                UserInfo.Entry(key: required(child, "key"), value: child.value("value") ?? "", location: child.location))
        }
        return userInfo
    }

    /// The legacy `<elements>` layout block.
    mutating func decodeDiagram(_ node: XMLNode) -> [DiagramElement] {
        node.children.compactMap { child in
            guard child.name == "element", let name = child.value("name") else { return nil }
            func coordinate(_ key: String) -> Double { child.value(key).flatMap(Double.init) ?? 0 }
            return DiagramElement(
                name: name, positionX: coordinate("positionX"), positionY: coordinate("positionY"),
                width: coordinate("width"), height: coordinate("height"))
        }
    }
}
