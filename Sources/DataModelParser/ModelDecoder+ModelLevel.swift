import DataModel

/// Model-level elements other than entities and templates, and `userInfo` everywhere.
extension ModelDecoder {
    enum NameXML: Int, XMLVocabulary {
        case name
        static let table = makeTable()
    }

    enum EntryXML: Int, XMLVocabulary {
        case key, value
        static let table = makeTable()
    }

    enum DiagramElementXML: Int, XMLVocabulary {
        case name, positionX, positionY, width, height
        static let table = makeTable()
    }

    mutating func decodeConfiguration(_ node: XMLNode) -> Configuration {
        var unknown = UnknownXML()
        let xml = XMLAttributes<NameXML>(node)
        let name = required(xml, .name)
        let element = "<configuration> '\(name)'"
        var members: [NameReference] = []
        for child in node.children {
            if child.name == "memberEntity" {
                let memberXML = XMLAttributes<NameXML>(child)
                collectUnknownAttributes(memberXML, in: "<memberEntity>", &unknown)
                for grandchild in child.children { unknownElement(grandchild, in: "<memberEntity>", &unknown) }
                members.append(NameReference(required(memberXML, .name), at: location(child)))
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(xml, in: element, &unknown)
        var configuration = Configuration(name: name, memberEntities: members, location: location(node))
        configuration.unknownXML = keep(unknown)
        return configuration
    }

    mutating func decodeComposite(_ node: XMLNode) -> Composite {
        var unknown = UnknownXML()
        let xml = XMLAttributes<NameXML>(node)
        let name = required(xml, .name)
        let element = "<composite> '\(name)'"
        var attributes: [Attribute] = []
        for child in node.children {
            if child.name == "attribute" {
                attributes.append(decodeAttribute(child))
            } else {
                unknownElement(child, in: element, &unknown)
            }
        }
        collectUnknownAttributes(xml, in: element, &unknown)
        var composite = Composite(name: name, attributes: attributes, location: location(node))
        composite.unknownXML = keep(unknown)
        return composite
    }

    /// `<userInfo>` entries. Stray content is reported; an entry without a key is an error.
    mutating func decodeUserInfo(_ node: XMLNode) -> UserInfo {
        var ignored = UnknownXML()
        collectUnknownAttributes(XMLAttributes<NoAttributes>(node), in: "<userInfo>", &ignored)
        var userInfo = UserInfo()
        for child in node.children {
            guard child.name == "entry" else {
                unknownElement(child, in: "<userInfo>", &ignored)
                continue
            }
            let xml = XMLAttributes<EntryXML>(child)
            collectUnknownAttributes(xml, in: "<entry>", &ignored)
            userInfo.entries.append(UserInfo.Entry(key: required(xml, .key), value: xml[.value] ?? "", location: location(child)))
        }
        return userInfo
    }

    /// The legacy `<elements>` layout block.
    mutating func decodeDiagram(_ node: XMLNode) -> [DiagramElement] {
        node.children.compactMap { child in
            let xml = XMLAttributes<DiagramElementXML>(child)
            guard child.name == "element", let name = xml[.name] else { return nil }
            func coordinate(_ key: DiagramElementXML) -> Double { xml[key].flatMap(Double.init) ?? 0 }
            return DiagramElement(
                name: name, positionX: coordinate(.positionX), positionY: coordinate(.positionY),
                width: coordinate(.width), height: coordinate(.height))
        }
    }
}
