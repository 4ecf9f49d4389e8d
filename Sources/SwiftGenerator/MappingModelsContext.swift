import DataModel

/// The mapping models of a bundle's versions, compiled into the model's file: the array the
/// runtime runs them from, and the keys each migration policy works with.
public struct MappingModelsContext: Sendable, Encodable {
    /// The property holding the mapping models: `mappingModels`.
    public var propertyName: String
    /// The mapping models as Swift values (`[DataModel.MappingModel(…)]`).
    public var definition: String
    /// The enum of the policies' keys: `Migrations`.
    public var enumName: String
    /// The entity mappings that name a migration policy, in the mapping models' order.
    public var policyMappings: [PolicyMappingContext]
    public var hasPolicies: Bool
}

/// An entity mapping run by a migration policy, with typed keys of its source and destination
/// entities in their versions, so that a policy reads and writes them as generated classes do:
/// `source[Library.Migrations.BookToBook.Source.title]`.
public struct PolicyMappingContext: Sendable, Encodable {
    /// The entity mapping's name: `BookToBook`.
    public var name: String
    /// The name as a Swift string literal: `"BookToBook"`.
    public var nameLiteral: String
    /// Its enum in the policies' enum.
    public var identifier: String
    /// The mapping model's bundle name: `Library1to2.xcmappingmodel`.
    public var mappingFileName: String
    public var policyClassName: String
    public var sourceEntity: String
    public var sourceVersion: String
    public var destinationEntity: String
    public var destinationVersion: String
    public var sourceKeys: [MappingKeyContext]
    public var destinationKeys: [MappingKeyContext]
}

/// A key of a property of an entity in one version: `AttributeKey<ManagedObject, String?>`.
public struct MappingKeyContext: Sendable, Encodable {
    public var name: String
    public var identifier: String
    public var keyType: String
    public var slot: Int
}

extension ModelContextBuilder {
    /// The context of the mapping models that connect two versions of the bundle, each rewritten
    /// to name its versions as the bundle does (so the runtime finds them by name, without the
    /// snapshots of every entity); a mapping model that connects none is left out.
    mutating func mappingModelsContext(typeName: String) -> MappingModelsContext? {
        var compiled: [MappingModel] = []
        var policies: [PolicyMappingContext] = []
        var taken: Set<String> = []
        for mapping in mappingModels {
            // A mapping model beside the bundle may be another model's: it is left out.
            guard let (source, destination) = mapping.connectedVersions(among: versions), source < destination else { continue }
            guard versions[source].versionName != nil, versions[destination].versionName != nil else {
                diagnostics.append(.warning(
                    "the mapping model connects versions without names, which the runtime finds mappings by; it is not compiled", at: mapping.location))
                continue
            }
            let fileName = Self.bundleName(of: mapping.path)
            var plain = mapping
            plain.path = fileName
            plain.sourceModelPath = "\(sourceFileName)/\(versionName(source)).xcdatamodel"
            plain.destinationModelPath = "\(sourceFileName)/\(versionName(destination)).xcdatamodel"
            plain.sourceSnapshot = nil
            plain.destinationSnapshot = nil
            compiled.append(plain)
            for entityMapping in mapping.entityMappings {
                guard let policy = entityMapping.migrationPolicyClassName else { continue }
                let wanted = SwiftIdentifier.typeName(for: entityMapping.name)
                var identifier = wanted
                while taken.contains(identifier) || identifier == "Source" || identifier == "Destination" { identifier += "_" }
                taken.insert(identifier)
                if identifier != wanted {
                    diagnostics.append(.note(
                        "the keys of entity mapping '\(entityMapping.name)' are generated in '\(identifier)': another mapping's have '\(wanted)'",
                        at: entityMapping.location))
                }
                policies.append(PolicyMappingContext(
                    name: entityMapping.name, nameLiteral: swiftStringLiteral(entityMapping.name), identifier: identifier,
                    mappingFileName: fileName, policyClassName: policy,
                    sourceEntity: entityMapping.sourceEntityName ?? "none", sourceVersion: versionName(source),
                    destinationEntity: entityMapping.destinationEntityName ?? "none", destinationVersion: versionName(destination),
                    sourceKeys: Self.keys(of: entityMapping.sourceEntityName, in: versions[source]),
                    destinationKeys: Self.keys(of: entityMapping.destinationEntityName, in: versions[destination])))
            }
        }
        guard !compiled.isEmpty else { return nil }
        let propertyName = namespaceMemberTypeName("mappingModels", holding: "the model's mapping models", typeName: typeName)
        let enumName = namespaceMemberTypeName("Migrations", holding: "the keys of the migration policies", typeName: typeName)
        // The first line follows `public static let <property>: [DataModel.MappingModel] = ` in the namespace.
        let lead = 4 + "public static let ".count + propertyName.count + ": [DataModel.MappingModel] = ".count
        let definition = SwiftExpression.array(compiled.map(MappingModelLiteral.expression(for:))).lines(indent: 4, lead: lead)
        return MappingModelsContext(
            propertyName: propertyName, definition: definition.joined(separator: "\n"), enumName: enumName, policyMappings: policies,
            hasPolicies: !policies.isEmpty)
    }

    private func versionName(_ index: Int) -> String {
        versions[index].versionName ?? ""
    }

    /// `Library1to2.xcmappingmodel` of `Models/Library1to2.xcmappingmodel/xcmapping.xml`.
    private static func bundleName(of path: String) -> String {
        let components = path.split(separator: "/")
        return String(components.last { $0.hasSuffix(".xcmappingmodel") } ?? components.last ?? "")
    }

    /// Keys of the stored attributes with a plain Swift type and of the relationships of `entity`
    /// in `version`, inherited ones first, as its objects hold them in a migration: instances of
    /// `ManagedObject`, whatever classes the app has now.
    private static func keys(of entityName: String?, in version: Model) -> [MappingKeyContext] {
        guard let entityName, let entity = version.entity(named: entityName) else { return [] }
        var taken: Set<String> = []
        func identifier(_ name: String) -> String {
            let identifier = SwiftIdentifier.memberName(for: name, avoiding: taken)
            taken.insert(identifier)
            return SwiftIdentifier.escaped(identifier)
        }
        var keys: [MappingKeyContext] = []
        for (slot, attribute) in version.allAttributes(of: entity).enumerated() where attribute.isPersistent {
            guard let type = SwiftType.standard(for: attribute.type) else { continue }
            keys.append(MappingKeyContext(
                name: attribute.name, identifier: identifier(attribute.name),
                keyType: "AttributeKey<ManagedObject, \(type)\(attribute.isOptional ? "?" : "")>", slot: slot))
        }
        for (slot, relationship) in version.allRelationships(of: entity).enumerated() {
            keys.append(MappingKeyContext(
                name: relationship.name, identifier: identifier(relationship.name),
                keyType: "\(relationship.isToMany ? "ToManyKey" : "ToOneKey")<ManagedObject, ManagedObject>", slot: slot))
        }
        return keys
    }
}

/// A mapping model spelled as Swift values, through `DataModel`'s initialisers, every argument
/// equal to its default left out.
enum MappingModelLiteral {
    static func expression(for mapping: MappingModel) -> SwiftExpression {
        .call("DataModel.MappingModel", [
            ("path", .string(mapping.path)), ("sourceModelPath", optional(mapping.sourceModelPath)),
            ("destinationModelPath", optional(mapping.destinationModelPath)),
            ("entityMappings", .array(mapping.entityMappings.map(expression(for:)))), ("location", .raw(".generated")),
        ])
    }

    private static func expression(for mapping: EntityMapping) -> SwiftExpression {
        var arguments: [(String?, SwiftExpression)] = [
            ("name", .string(mapping.name)), ("sourceEntityName", optional(mapping.sourceEntityName)),
            ("destinationEntityName", optional(mapping.destinationEntityName)),
        ]
        if let policy = mapping.migrationPolicyClassName { arguments.append(("migrationPolicyClassName", .string(policy))) }
        if !mapping.userInfo.isEmpty {
            let pairs = mapping.userInfo.sorted { $0.key < $1.key }.map { "\(swiftStringLiteral($0.key)): \(swiftStringLiteral($0.value))" }
            arguments.append(("userInfo", .raw("[" + pairs.joined(separator: ", ") + "]")))
        }
        if let filter = mapping.filterPredicate { arguments.append(("filterPredicate", .string(filter))) }
        if !mapping.attributeMappings.isEmpty { arguments.append(("attributeMappings", .array(mapping.attributeMappings.map(expression(for:))))) }
        if !mapping.relationshipMappings.isEmpty {
            arguments.append(("relationshipMappings", .array(mapping.relationshipMappings.map(expression(for:)))))
        }
        arguments.append(("location", .raw(".generated")))
        return .call("DataModel.EntityMapping", arguments)
    }

    private static func expression(for mapping: PropertyMapping) -> SwiftExpression {
        var arguments: [(String?, SwiftExpression)] = [("name", .string(mapping.name))]
        if let expression = mapping.valueExpression { arguments.append(("valueExpression", .string(expression))) }
        if let name = mapping.sourceMappingName { arguments.append(("sourceMappingName", .string(name))) }
        arguments.append(("location", .raw(".generated")))
        return .call("DataModel.PropertyMapping", arguments)
    }

    private static func optional(_ text: String?) -> SwiftExpression {
        text.map(SwiftExpression.string) ?? .raw("nil")
    }
}
