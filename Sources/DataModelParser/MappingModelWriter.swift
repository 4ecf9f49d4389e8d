import DataModel
import Foundation
import PropertyLists

/// Writes a mapping model as an `.xcmappingmodel` bundle's `xcmapping.xml`, the XML store of
/// Xcode's editing objects that ``MappingModelParser`` reads back to the same mapping model: what
/// `datamodel-gen new-mapping` saves.
///
/// Entity mappings are numbered in their order; value expressions and user info are keyed archives,
/// laid out as Xcode's files hold them. Xcode's editor keeps its whole editing model of each version
/// in the file (`sourcemodeldata`); this writer keeps only the entity and property names, which is
/// what tells which versions a mapping connects. What the format is not known to hold is refused
/// (``Unsupported``), never written without it: a filter predicate, whose field no sampled file has.
public enum MappingModelWriter {
    /// What the writer does not write, named.
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `mapping` into the bundle at `path` (made when missing), as its `xcmapping.xml`.
    public static func write(_ mapping: MappingModel, toBundle path: String) throws {
        let contents = try xml(of: mapping)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("xcmapping.xml"), options: .atomic)
    }

    /// The `xcmapping.xml` of `mapping`; `identifier` is the store's `UUID`, new unless given.
    public static func xml(of mapping: MappingModel, identifier: UUID = UUID()) throws(Unsupported) -> String {
        var objects = ObjectList()
        let modelID = objects.reserve()
        var entityMappingIDs: [String] = []
        for (number, entityMapping) in mapping.entityMappings.enumerated() {
            if entityMapping.filterPredicate != nil {
                throw Unsupported(description: "the filter predicate of \(entityMapping.name) is not written: no sampled file holds one")
            }
            let id = objects.reserve()
            entityMappingIDs.append(id)
            let attributeIDs = try entityMapping.attributeMappings.map { property throws(Unsupported) in
                try objects.add("XDDEVATTRIBUTEMAPPING", propertyFields(property, of: entityMapping, entityMappingID: id))
            }
            let relationshipIDs = try entityMapping.relationshipMappings.map { property throws(Unsupported) in
                try objects.add("XDDEVRELATIONSHIPMAPPING", propertyFields(property, of: entityMapping, entityMappingID: id))
            }
            let defaultName = "\(entityMapping.sourceEntityName ?? "")To\(entityMapping.destinationEntityName ?? "")"
            objects.fill(id, "XDDEVENTITYMAPPING", [
                .string("sourcename", entityMapping.sourceEntityName), .string("destinationname", entityMapping.destinationEntityName),
                .string("name", entityMapping.name == defaultName ? nil : entityMapping.name), .string("mappingtypename", "Undefined"),
                .number("mappingnumber", "int16", number + 1), .bool("autogenerateexpression", true),
                .string("migrationpolicyclassname", entityMapping.migrationPolicyClassName),
                .binary("userinfodata", entityMapping.userInfo.isEmpty ? nil : userInfoArchive(entityMapping.userInfo)),
                .link("mappingmodel", "1/1", "XDDEVMAPPINGMODEL", [modelID]),
                .link("attributemappings", "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs),
                .link("relationshipmappings", "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs),
            ])
        }
        objects.fill(modelID, "XDDEVMAPPINGMODEL", [
            .string("sourcemodelpath", mapping.sourceModelPath), .binary("sourcemodeldata", mapping.sourceSnapshot.map(snapshotArchive)),
            .string("destinationmodelpath", mapping.destinationModelPath),
            .binary("destinationmodeldata", mapping.destinationSnapshot.map(snapshotArchive)),
            .link("entitymappings", "0/0", "XDDEVENTITYMAPPING", entityMappingIDs),
        ])
        return header(identifier: identifier, nextObjectID: objects.count + 1) + objects.lines.joined(separator: "\n") + "\n</database>\n"
    }

    private static func propertyFields(_ property: PropertyMapping, of mapping: EntityMapping, entityMappingID: String) throws(Unsupported) -> [Field] {
        var expression: [UInt8]?
        if let text = property.valueExpression {
            do {
                expression = try ExpressionArchiver.archive(text)
            } catch {
                throw Unsupported(description: "the value expression of \(mapping.name).\(property.name), '\(text)', is not written: \(error)")
            }
        }
        return [
            .string("name", property.name), .binary("valueexpressiondata", expression), .bool("autogenerateexpression", expression == nil),
            .string("sourcemappingname", property.sourceMappingName), .link("entitymapping", "1/1", "XDDEVENTITYMAPPING", [entityMappingID]),
        ]
    }

    /// The entities and their properties, each property naming its entity as `_owner`.
    private static func snapshotArchive(_ snapshot: ModelSnapshot) -> [UInt8] {
        var writer = KeyedArchiveWriter()
        var entities: [PropertyListValue] = []
        for (entityName, properties) in snapshot.properties.sorted(by: { $0.key < $1.key }) {
            let name = writer.string(entityName)
            let entity = writer.object("XDPMEntity", ["_name": name])
            entities.append(entity)
            for property in properties.sorted() {
                let propertyName = writer.string(property)
                _ = writer.object("XDPMAttribute", ["_name": propertyName, "_owner": entity])
            }
        }
        let list = writer.array(entities)
        let root = writer.object("XDPMModel", ["_entities": list])
        return writer.bytes(root: root)
    }

    private static func userInfoArchive(_ userInfo: [String: String]) -> [UInt8] {
        var writer = KeyedArchiveWriter()
        var entries: [(String, PropertyListValue)] = []
        for (key, value) in userInfo.sorted(by: { $0.key < $1.key }) { entries.append((key, writer.string(value))) }
        let root = writer.dictionary(entries)
        return writer.bytes(root: root)
    }

    /// The store's header: its format version, identifier, next object number, and the version
    /// hashes of Xcode's mapping-model schema, which Core Data's XML store checks as it opens one.
    private static func header(identifier: UUID, nextObjectID: Int) -> String {
        let hashes = [
            ("XDDevAttributeMapping", "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc="), ("XDDevEntityMapping", "qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI="),
            ("XDDevMappingModel", "EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ="), ("XDDevPropertyMapping", "XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA="),
            ("XDDevRelationshipMapping", "akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs="),
        ]
        var lines = [
            #"<?xml version="1.0" standalone="yes"?>"#, #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#, "", "<database>",
            "    <databaseInfo>", "        <version>134481920</version>", "        <UUID>\(identifier.uuidString)</UUID>",
            "        <nextObjectID>\(nextObjectID)</nextObjectID>", "        <metadata>", #"            <plist version="1.0">"#, "                <dict>",
            "                    <key>NSPersistenceFrameworkVersion</key>", "                    <integer>977</integer>",
            "                    <key>NSStoreModelVersionHashes</key>", "                    <dict>",
        ]
        for (entity, hash) in hashes {
            lines += ["                        <key>\(entity)</key>", "                        <data>\(hash)</data>"]
        }
        lines += [
            "                    </dict>", "                    <key>NSStoreModelVersionHashesVersion</key>", "                    <integer>3</integer>",
            "                    <key>NSStoreModelVersionIdentifiers</key>", "                    <array>", "                        <string></string>",
            "                    </array>", "                </dict>", "            </plist>", "        </metadata>", "    </databaseInfo>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One `<attribute>` or `<relationship>` of an object of the XML store; a `nil` value is left out.
private enum Field {
    case string(String, String?)
    case number(String, String, Int)
    case bool(String, Bool)
    case binary(String, [UInt8]?)
    case link(String, String, String, [String])

    var line: String? {
        switch self {
        case .string(let name, let value?): element("attribute", [("name", name), ("type", "string")], ModelWriter.escaped(value))
        case .number(let name, let type, let value): element("attribute", [("name", name), ("type", type)], String(value))
        case .bool(let name, true): element("attribute", [("name", name), ("type", "bool")], "1")
        case .binary(let name, let bytes?): element("attribute", [("name", name), ("type", "binary")], Data(bytes).base64EncodedString())
        case .link(let name, let type, let destination, let ids) where !ids.isEmpty:
            element("relationship", [("name", name), ("type", type), ("destination", destination), ("idrefs", ids.joined(separator: " "))], "")
        default: nil
        }
    }

    private func element(_ tag: String, _ attributes: [(String, String?)], _ text: String) -> String {
        "        <\(tag)" + ModelWriter.attributes(attributes) + ">\(text)</\(tag)>"
    }
}

/// The store's objects, numbered `z1`, `z2`… in the order they are reserved.
private struct ObjectList {
    private var objects: [(type: String, fields: [Field])] = []

    var count: Int { objects.count }

    mutating func reserve() -> String {
        objects.append(("", []))
        return "z\(objects.count)"
    }

    mutating func add(_ type: String, _ fields: [Field]) -> String {
        let id = reserve()
        fill(id, type, fields)
        return id
    }

    /// Gives the object reserved as `id` (`z` and its position from 1) its type and fields.
    mutating func fill(_ id: String, _ type: String, _ fields: [Field]) {
        guard let number = Int(id.dropFirst()), objects.indices.contains(number - 1) else { return }
        objects[number - 1] = (type, fields)
    }

    var lines: [String] {
        objects.enumerated().flatMap { offset, object in
            ["    <object type=\"\(object.type)\" id=\"z\(offset + 1)\">"] + object.fields.compactMap(\.line) + ["    </object>"]
        }
    }
}
