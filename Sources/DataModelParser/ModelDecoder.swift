import DataModel

/// Turns the XML tree of a `contents` file into a `Model`.
///
/// It never stops early: bad values become located errors (the raw text is kept in `unknownXML`),
/// unknown attributes and elements become warnings and are kept verbatim.
struct ModelDecoder {
    /// The file every location names.
    let path: String
    private(set) var diagnostics: [Diagnostic] = []

    init(path: String) { self.path = path }

    func location(_ node: XMLNode) -> SourceLocation { node.location(in: path) }

    enum ModelXML: Int, XMLVocabulary {
        case type, documentVersion, lastSavedToolsVersion, systemVersion, minimumToolsVersion, sourceLanguage
        case userDefinedModelVersionIdentifier, usedWithCloudKit, usedWithSwiftData, name, macOSVersion, iOSVersion
        static let table = makeTable()
    }

    mutating func decodeModel(_ node: XMLNode, versionName: String?) -> Model {
        var unknown = UnknownXML()
        let xml = XMLAttributes<ModelXML>(node)
        var header = ModelHeader()
        header.type = xml[.type]
        header.documentVersion = xml[.documentVersion]
        header.lastSavedToolsVersion = xml[.lastSavedToolsVersion]
        header.systemVersion = xml[.systemVersion]
        header.minimumToolsVersion = xml[.minimumToolsVersion]
        header.sourceLanguage = xml[.sourceLanguage]
        header.userDefinedModelVersionIdentifier = xml[.userDefinedModelVersionIdentifier]
        header.usedWithCloudKit = bool(xml, .usedWithCloudKit, &unknown)
        header.usedWithSwiftData = bool(xml, .usedWithSwiftData, &unknown)
        header.name = xml[.name]
        header.macOSVersion = xml[.macOSVersion]
        header.iOSVersion = xml[.iOSVersion]
        if let type = header.type, type != "com.apple.IDECoreDataModeler.DataModel" {
            warning("model type is '\(type)', not 'com.apple.IDECoreDataModeler.DataModel'; reading it as a Core Data model", at: location(node))
        }

        var model = Model(path: path, versionName: versionName, header: header, location: location(node))
        var entities: [Entity] = []
        for child in node.children {
            switch child.name {
            case "entity": entities.append(decodeEntity(child))
            case "composite": model.composites.append(decodeComposite(child))
            case "fetchRequest": model.fetchRequestTemplates.append(decodeTemplate(child))
            case "configuration": model.configurations.append(decodeConfiguration(child))
            case "elements": model.diagramLayout.append(contentsOf: decodeDiagram(child))
            default: unknownElement(child, in: "<model>", &unknown)
            }
        }
        model.entities = entities
        collectUnknownAttributes(xml, in: "<model>", &unknown)
        model.unknownXML = unknown.isEmpty ? nil : unknown
        return model
    }

    // MARK: Reading values

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    /// A required attribute; a missing one is an error and reads as "".
    mutating func required<Name>(_ xml: XMLAttributes<Name>, _ name: Name) -> String {
        if let value = xml[name] { return value }
        error("<\(xml.node.name)> has no '\(name.xmlName)' attribute", at: location(xml.node))
        return ""
    }

    /// `YES`/`NO` (Xcode's spelling; `true`/`false` in any case are accepted too). Anything else is an error.
    mutating func bool<Name>(
        _ xml: XMLAttributes<Name>, _ name: Name, default defaultValue: Bool = false, _ unknown: inout UnknownXML
    ) -> Bool {
        guard let text = xml[name] else { return defaultValue }
        if text == "YES" { return true }
        if text == "NO" { return false }
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default:
            invalid(xml, name, text, expected: "YES or NO", &unknown)
            return defaultValue
        }
    }

    /// An optional `YES`/`NO`, nil when absent.
    mutating func optionalBool<Name>(_ xml: XMLAttributes<Name>, _ name: Name, _ unknown: inout UnknownXML) -> Bool? {
        xml[name] == nil ? nil : bool(xml, name, &unknown)
    }

    mutating func integer<Name>(_ xml: XMLAttributes<Name>, _ name: Name, _ unknown: inout UnknownXML) -> Int? {
        guard let text = xml[name] else { return nil }
        guard let value = Int(text.trimmingSpaces) else {
            invalid(xml, name, text, expected: "a whole number", &unknown)
            return nil
        }
        return value
    }

    mutating func number<Name>(_ xml: XMLAttributes<Name>, _ name: Name, _ unknown: inout UnknownXML) -> Double? {
        guard let text = xml[name] else { return nil }
        guard let value = Double(text.trimmingSpaces), value.isFinite else {
            invalid(xml, name, text, expected: "a finite number", &unknown)
            return nil
        }
        return value
    }

    /// A value from a fixed vocabulary; an unknown one is an error, and its text is kept.
    mutating func choice<Name, Value: RawRepresentable>(
        _ xml: XMLAttributes<Name>, _ name: Name, _ unknown: inout UnknownXML
    ) -> Value? where Value.RawValue == String, Value: CaseIterable {
        guard let text = xml[name] else { return nil }
        if let value = Value(rawValue: text) { return value }
        let expected = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        invalid(xml, name, text, expected: "one of \(expected)", &unknown)
        return nil
    }

    mutating func invalid<Name>(
        _ xml: XMLAttributes<Name>, _ name: Name, _ text: String, expected: String, _ unknown: inout UnknownXML
    ) {
        error("<\(xml.node.name)> attribute '\(name.xmlName)' is '\(text)'; expected \(expected)", at: location(xml.node))
        unknown.attributes.append(UnknownXML.Attribute(name: name.xmlName, value: text))
    }

    // MARK: Unknown XML

    /// Reports and keeps the attributes `xml`'s vocabulary does not know.
    mutating func collectUnknownAttributes<Name>(
        _ xml: XMLAttributes<Name>, in element: @autoclosure () -> String, _ unknown: inout UnknownXML
    ) {
        for attribute in xml.unknown {
            let element = element()
            warning("unknown attribute '\(attribute.name)' on \(element) is kept but has no effect", at: location(xml.node))
            unknown.attributes.append(UnknownXML.Attribute(name: attribute.name, value: attribute.value))
        }
    }

    mutating func unknownElement(_ child: XMLNode, in element: String, _ unknown: inout UnknownXML) {
        warning("unknown element <\(child.name)> in \(element) is kept but has no effect", at: location(child))
        unknown.elements.append(child.unknownElement(in: path))
    }

    /// `unknown`, or nil when it holds nothing.
    func keep(_ unknown: UnknownXML) -> UnknownXML? { unknown.isEmpty ? nil : unknown }
}
