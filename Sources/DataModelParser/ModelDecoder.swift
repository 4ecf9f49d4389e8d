import DataModel
import Foundation

/// Turns the XML tree of a `contents` file into a `Model`.
///
/// It never stops early: bad values become located errors (the raw text is kept in `unknownXML`),
/// unknown attributes and elements become warnings and are kept verbatim.
struct ModelDecoder {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func decodeModel(_ node: XMLNode, path: String, versionName: String?) -> Model {
        var unknown = UnknownXML()
        var header = ModelHeader()
        header.type = node.value("type")
        header.documentVersion = node.value("documentVersion")
        header.lastSavedToolsVersion = node.value("lastSavedToolsVersion")
        header.systemVersion = node.value("systemVersion")
        header.minimumToolsVersion = node.value("minimumToolsVersion")
        header.sourceLanguage = node.value("sourceLanguage")
        header.userDefinedModelVersionIdentifier = node.value("userDefinedModelVersionIdentifier")
        header.usedWithCloudKit = bool(node, "usedWithCloudKit", &unknown)
        header.usedWithSwiftData = bool(node, "usedWithSwiftData", &unknown)
        header.name = node.value("name")
        header.macOSVersion = node.value("macOSVersion")
        header.iOSVersion = node.value("iOSVersion")
        if let type = header.type, type != "com.apple.IDECoreDataModeler.DataModel" {
            warning("model type is '\(type)', not 'com.apple.IDECoreDataModeler.DataModel'; reading it as a Core Data model", at: node.location)
        }

        var model = Model(path: path, versionName: versionName, header: header, location: node.location)
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
        collectUnknownAttributes(node, known: Self.modelAttributes, in: "<model>", &unknown)
        model.unknownXML = unknown.isEmpty ? nil : unknown
        return model
    }

    private static let modelAttributes: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "userDefinedModelVersionIdentifier", "usedWithCloudKit", "usedWithSwiftData",
        "name", "macOSVersion", "iOSVersion",
    ]

    // MARK: Reading values

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    /// A required attribute; a missing one is an error and reads as "".
    mutating func required(_ node: XMLNode, _ name: String) -> String {
        if let value = node.value(name) { return value }
        error("<\(node.name)> has no '\(name)' attribute", at: node.location)
        return ""
    }

    /// `YES`/`NO` (Xcode's spelling; `true`/`false` are accepted too). Anything else is an error.
    mutating func bool(_ node: XMLNode, _ name: String, default defaultValue: Bool = false, _ unknown: inout UnknownXML) -> Bool {
        guard let text = node.value(name) else { return defaultValue }
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default:
            invalid(node, name, text, expected: "YES or NO", &unknown)
            return defaultValue
        }
    }

    /// An optional `YES`/`NO`, nil when absent.
    mutating func optionalBool(_ node: XMLNode, _ name: String, _ unknown: inout UnknownXML) -> Bool? {
        node.value(name) == nil ? nil : bool(node, name, &unknown)
    }

    mutating func integer(_ node: XMLNode, _ name: String, _ unknown: inout UnknownXML) -> Int? {
        guard let text = node.value(name) else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            invalid(node, name, text, expected: "a whole number", &unknown)
            return nil
        }
        return value
    }

    mutating func number(_ node: XMLNode, _ name: String, _ unknown: inout UnknownXML) -> Double? {
        guard let text = node.value(name) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            invalid(node, name, text, expected: "a finite number", &unknown)
            return nil
        }
        return value
    }

    /// A value from a fixed vocabulary; an unknown one is an error, and its text is kept.
    mutating func choice<Value: RawRepresentable>(
        _ node: XMLNode, _ name: String, _ unknown: inout UnknownXML
    ) -> Value? where Value.RawValue == String, Value: CaseIterable {
        guard let text = node.value(name) else { return nil }
        if let value = Value(rawValue: text) { return value }
        let expected = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        invalid(node, name, text, expected: "one of \(expected)", &unknown)
        return nil
    }

    private mutating func invalid(
        _ node: XMLNode, _ name: String, _ text: String, expected: String, _ unknown: inout UnknownXML
    ) {
        error("<\(node.name)> attribute '\(name)' is '\(text)'; expected \(expected)", at: node.location)
        unknown.attributes.append(UnknownXML.Attribute(name: name, value: text))
    }

    // MARK: Unknown XML

    mutating func collectUnknownAttributes(
        _ node: XMLNode, known: Set<String>, in element: String, _ unknown: inout UnknownXML
    ) {
        for attribute in node.attributes where !known.contains(attribute.name) {
            warning("unknown attribute '\(attribute.name)' on \(element) is kept but has no effect", at: node.location)
            unknown.attributes.append(UnknownXML.Attribute(name: attribute.name, value: attribute.value))
        }
    }

    mutating func unknownElement(_ child: XMLNode, in element: String, _ unknown: inout UnknownXML) {
        warning("unknown element <\(child.name)> in \(element) is kept but has no effect", at: child.location)
        unknown.elements.append(child.unknownElement)
    }

    /// `unknown`, or nil when it holds nothing.
    func keep(_ unknown: UnknownXML) -> UnknownXML? { unknown.isEmpty ? nil : unknown }
}
