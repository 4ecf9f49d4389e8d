import DataModel
import Foundation
import PropertyLists

/// A parsed mapping model and what the parser noticed on the way.
public struct ParsedMappingModel: Sendable, Equatable {
    public var mappingModel: MappingModel
    /// Located problems; a mapping model with an error among them must not be run.
    public var diagnostics: [Diagnostic]
}

/// Reads an `.xcmappingmodel` bundle's `xcmapping.xml`.
///
/// The file is a Core Data XML store of Xcode's editing objects: one `XDDEVMAPPINGMODEL`, its
/// `XDDEVENTITYMAPPING`s, and their attribute and relationship mappings, linked by `idrefs`; values
/// are element text, expressions and user info base64 keyed archives. Editing leaves objects that
/// nothing points to in the file, so the parser follows the links from the mapping model rather
/// than collecting every object of a type.
///
///     let parsed = try MappingModelParser.load("Models/V1ToV2.xcmappingmodel")
public enum MappingModelParser {
    /// Reads the bundle at `path` (or its `xcmapping.xml` itself).
    public static func load(_ path: String) throws(ModelLoadingError) -> ParsedMappingModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelLoadingError(.notFound, "no mapping model at this path", at: SourceLocation(file: path))
        }
        let file = isDirectory.boolValue ? (path as NSString).appendingPathComponent("xcmapping.xml") : path
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ModelLoadingError(
                isDirectory.boolValue && !FileManager.default.fileExists(atPath: file) ? .notAModel : .unreadable,
                isDirectory.boolValue ? "the bundle has no readable xcmapping.xml" : "the file cannot be read", at: SourceLocation(file: file))
        }
        return try parse(Array(data), path: file)
    }

    /// Parses `bytes` as an `xcmapping.xml`; `path` names the file in locations.
    public static func parse(_ bytes: [UInt8], path: String) throws(ModelLoadingError) -> ParsedMappingModel {
        let tree = try XMLTreeReader.read(
            bytes, path: path, keepingText: true, expected: "a mapping model's xcmapping.xml is an XML document whose root element is <database>")
        guard tree.root.name == "database" else {
            throw ModelLoadingError(
                .notAModel, "the root element is <\(tree.root.name)>, not <database>: this is not a mapping model",
                at: tree.root.location(in: path))
        }
        var decoder = MappingModelDecoder(path: path, objects: tree.root.children.filter { $0.name == "object" })
        let mappingModel = try decoder.decode(tree.root)
        return ParsedMappingModel(mappingModel: mappingModel, diagnostics: (tree.diagnostics + decoder.diagnostics).sortedByLocation())
    }
}

/// Walks the objects of an `xcmapping.xml` from its mapping model.
private struct MappingModelDecoder {
    let path: String
    /// Every `<object>`, by its `id`.
    let objects: [String: XMLNode]
    var diagnostics: [Diagnostic] = []

    init(path: String, objects: [XMLNode]) {
        self.path = path
        self.objects = Dictionary(objects.compactMap { node in node.attribute("id").map { ($0, node) } }, uniquingKeysWith: { first, _ in first })
    }

    mutating func decode(_ root: XMLNode) throws(ModelLoadingError) -> MappingModel {
        let models = root.children.filter { $0.name == "object" && $0.attribute("type") == "XDDEVMAPPINGMODEL" }
        guard let model = models.first else {
            throw ModelLoadingError(.notAModel, "the file holds no mapping model (no object of type XDDEVMAPPINGMODEL)", at: root.location(in: path))
        }
        if models.count > 1 { diagnostics.append(.warning("the file holds \(models.count) mapping models; the first is read", at: models[1].location(in: path))) }
        var mappings = linked(model, "entitymappings").map { decodeEntityMapping($0) }
        mappings.sort { $0.number < $1.number }
        return MappingModel(
            path: path, sourceModelPath: value(model, "sourcemodelpath"), destinationModelPath: value(model, "destinationmodelpath"),
            sourceSnapshot: snapshot(model, "sourcemodeldata"), destinationSnapshot: snapshot(model, "destinationmodeldata"),
            entityMappings: mappings.map(\.mapping), location: model.location(in: path))
    }

    /// The entities and properties of a model as Xcode's editor archived it (`XDPMEntity`,
    /// `XDPMAttribute`, `XDPMRelationship`, each property naming its entity as `_owner`).
    private mutating func snapshot(_ node: XMLNode, _ name: String) -> ModelSnapshot? {
        guard let archive = archive(node, name) else { return nil }
        var properties: [String: Set<String>] = [:]
        for entity in archive.objects(ofClass: "XDPMEntity") {
            guard let entityName = try? entity.value(forKey: "_name").string else { continue }
            properties[entityName, default: []].formUnion([])
        }
        for property in archive.objects(ofClass: "XDPMAttribute") + archive.objects(ofClass: "XDPMRelationship") {
            guard let propertyName = try? property.value(forKey: "_name").string,
                  let owner = try? property.value(forKey: "_owner").object?.value(forKey: "_name").string
            else { continue }
            properties[owner, default: []].insert(propertyName)
        }
        return properties.isEmpty ? nil : ModelSnapshot(properties: properties)
    }

    private mutating func decodeEntityMapping(_ node: XMLNode) -> (number: Int, mapping: EntityMapping) {
        let source = value(node, "sourcename").flatMap { $0.isEmpty ? nil : $0 }
        let destination = value(node, "destinationname").flatMap { $0.isEmpty ? nil : $0 }
        let location = node.location(in: path)
        if source == nil && destination == nil {
            diagnostics.append(.error("an entity mapping names neither a source nor a destination entity", at: location))
        }
        let explicitName = value(node, "name").flatMap { $0.isEmpty ? nil : $0 }
        let policy = value(node, "migrationpolicyclassname").flatMap { $0.isEmpty ? nil : $0 }
        var mapping = EntityMapping(
            name: explicitName ?? "\(source ?? "")To\(destination ?? "")", sourceEntityName: source, destinationEntityName: destination,
            migrationPolicyClassName: policy, userInfo: userInfo(node), location: location)
        mapping.attributeMappings = linked(node, "attributemappings").map { decodePropertyMapping($0) }.sorted { $0.name < $1.name }
        mapping.relationshipMappings = linked(node, "relationshipmappings").map { decodePropertyMapping($0) }.sorted { $0.name < $1.name }
        return (Int(value(node, "mappingnumber") ?? "") ?? Int.max, mapping)
    }

    private mutating func decodePropertyMapping(_ node: XMLNode) -> PropertyMapping {
        let location = node.location(in: path)
        guard let name = value(node, "name"), !name.isEmpty else {
            diagnostics.append(.error("a property mapping has no name", at: location))
            return PropertyMapping(name: "", location: location)
        }
        var mapping = PropertyMapping(name: name, sourceMappingName: value(node, "sourcemappingname"), location: location)
        if let archive = archive(node, "valueexpressiondata") {
            do {
                mapping.valueExpression = try ArchivedExpression.text(of: archive.topValue())
            } catch {
                diagnostics.append(.error("the value expression of \(name) cannot be read: \(error)", at: attributeLocation(node, "valueexpressiondata")))
            }
        }
        return mapping
    }

    /// The entity mapping's user info, whose keys and values are strings.
    private mutating func userInfo(_ node: XMLNode) -> [String: String] {
        guard let archive = archive(node, "userinfodata") else { return [:] }
        do {
            var entries: [String: String] = [:]
            for (key, value) in try archive.topValue().object?.entries() ?? [] {
                guard let key = key.string else { continue }
                entries[key] = value.string ?? value.plainText
            }
            return entries
        } catch {
            diagnostics.append(.error("the user info cannot be read: \(error)", at: attributeLocation(node, "userinfodata")))
            return [:]
        }
    }

    // MARK: The XML store's objects

    /// The text of the `<attribute name="…">` of `node`.
    private func value(_ node: XMLNode, _ name: String) -> String? {
        node.children.first { $0.name == "attribute" && $0.attribute("name") == name }?.text
    }

    private func attributeLocation(_ node: XMLNode, _ name: String) -> SourceLocation {
        (node.children.first { $0.name == "attribute" && $0.attribute("name") == name } ?? node).location(in: path)
    }

    /// The keyed archive base64-encoded in the `<attribute name="…">` of `node`.
    private mutating func archive(_ node: XMLNode, _ name: String) -> KeyedArchive? {
        guard let text = value(node, name) else { return nil }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            diagnostics.append(.error("\(name) is not base64", at: attributeLocation(node, name)))
            return nil
        }
        do {
            return try KeyedArchive(binaryPropertyList: Array(data))
        } catch {
            diagnostics.append(.error("\(name): \(error)", at: attributeLocation(node, name)))
            return nil
        }
    }

    /// The objects the `<relationship name="…">` of `node` links to, in `idrefs` order.
    private mutating func linked(_ node: XMLNode, _ name: String) -> [XMLNode] {
        guard let relationship = node.children.first(where: { $0.name == "relationship" && $0.attribute("name") == name }) else { return [] }
        var found: [XMLNode] = []
        for id in (relationship.attribute("idrefs") ?? "").split(separator: " ") {
            guard let object = objects[String(id)] else {
                diagnostics.append(.error("\(name) links to \(id), which the file does not hold", at: relationship.location(in: path)))
                continue
            }
            found.append(object)
        }
        return found
    }
}

extension ArchivedValue {
    /// A scalar as text: what a user-info value that is not a string reads as.
    var plainText: String? {
        switch self {
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .boolean(let boolean): boolean ? "YES" : "NO"
        default: nil
        }
    }
}
