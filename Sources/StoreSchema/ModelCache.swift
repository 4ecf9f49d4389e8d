import DataModel
import Foundation
import PropertyLists

/// The model a store carries: Core Data keeps the compiled `NSManagedObjectModel` that wrote a
/// store in `Z_MODELCACHE.Z_CONTENT`, raw-DEFLATE compressed and archived with `NSKeyedArchiver`
/// (DataStore's *The Model Cache Format* article is the format's reference). SwiftData's stores
/// carry theirs the same way.
///
///     let model = try ModelCache.decode(blob, path: "Library.sqlite")
///
/// A compiled model (a `.mom` file inside an app's `.momd` folder) is the same archive, not
/// compressed: `decode(compiledModel:path:)` reads one.
///
/// Decoding is total: what the archive holds that this reader cannot represent (a fetched property
/// whose request has a limit) is a `ModelCacheError` that names it, never a model with parts
/// missing. A composite attribute becomes a model-level composite named after its property (an
/// archive keeps no other name for it). A Transformable attribute's default object becomes the
/// bytes its column would hold (`Attribute.defaultData`).
public enum ModelCache {
    /// The model `blob` (the `Z_CONTENT` of the store at `path`) holds.
    public static func decode(_ blob: [UInt8], path: String) throws(ModelCacheError) -> Model {
        let payload: [UInt8]
        do {
            payload = try RawDeflate.inflate(blob)
        } catch {
            throw ModelCacheError("Z_MODELCACHE does not inflate: \(error)")
        }
        return try decode(archive: payload, path: path)
    }

    /// The model a compiled model file (`Model.momd/Model 2.mom`, Xcode's `momc` output) at `path` holds.
    public static func decode(compiledModel bytes: [UInt8], path: String) throws(ModelCacheError) -> Model {
        try decode(archive: bytes, path: path)
    }

    /// The model an inflated cache, a keyed archive, holds.
    static func decode(archive payload: [UInt8], path: String) throws(ModelCacheError) -> Model {
        do {
            let archive = try KeyedArchive(binaryPropertyList: payload)
            guard let root = try archive.topValue().object, root.className == "NSManagedObjectModel" else {
                throw ModelCacheError("the archive's root is no NSManagedObjectModel")
            }
            var reader = ModelCacheReader(path: path)
            return try reader.model(root)
        } catch let error as ModelCacheError {
            throw error
        } catch {
            throw ModelCacheError("\(error)")
        }
    }
}

/// Why a store's model cache could not be read.
public struct ModelCacheError: Error, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads the archived model's objects into a `Model`.
private struct ModelCacheReader {
    let path: String
    /// The model-level composites the entities' composite attributes were read into.
    private var composites: [Composite] = []
    /// How many composites the attribute being read is inside: a damaged archive may make one
    /// contain itself.
    private var compositeDepth = 0

    init(path: String) {
        self.path = path
    }

    mutating func model(_ root: ArchivedObject) throws -> Model {
        let entityObjects = try entities(root.value(forKey: "NSEntities"))
        // A cache lists inherited properties under every subentity too: a property is an entity's
        // own when no ancestor has one of its name.
        var propertyNames: [String: Set<String>] = [:]
        var properties: [String: [(key: String, value: ArchivedValue)]] = [:]
        var parents: [String: String] = [:]
        for entity in entityObjects {
            let name = try string(entity, "NSEntityName")
            properties[name] = try dictionary(entity.value(forKey: "NSProperties"))
            propertyNames[name] = Set(properties[name, default: []].map(\.key))
            if let parent = try entity.value(forKey: "NSSuperentity").object { parents[name] = try string(parent, "NSEntityName") }
        }
        /// The property names of `entity`'s ancestors; a damaged archive may chain entities in a loop.
        func inherited(_ entity: String) throws -> Set<String> {
            var names: Set<String> = []
            var seen: Set<String> = [entity]
            var ancestor = parents[entity]
            while let current = ancestor {
                guard seen.insert(current).inserted else { throw ModelCacheError("the superentities of \(entity) form a loop") }
                names.formUnion(propertyNames[current] ?? [])
                ancestor = parents[current]
            }
            return names
        }
        var entities: [Entity] = []
        for object in entityObjects {
            let name = try string(object, "NSEntityName")
            entities.append(try entity(object, named: name, parent: parents[name], properties: properties[name] ?? [], skipping: inherited(name)))
        }
        var configurations: [Configuration] = []
        for (name, members) in try dictionary(root.value(forKey: "NSConfigurations")).sorted(by: { $0.key < $1.key }) {
            let names = try members.object?.elements().compactMap { try $0.object.map { try string($0, "NSEntityName") } } ?? []
            configurations.append(Configuration(name: name, memberEntities: names.sorted().map { NameReference($0, at: .generated) }, location: .generated))
        }
        var templates: [FetchRequestTemplate] = []
        for (name, value) in try dictionary(root.value(forKey: "NSFetchRequestTemplates")).sorted(by: { $0.key < $1.key }) {
            templates.append(try template(value, named: name))
        }
        return Model(
            path, entities: entities.sorted { $0.name < $1.name }, composites: composites.sorted { $0.name < $1.name },
            fetchRequestTemplates: templates, configurations: configurations)
    }

    private mutating func entity(
        _ object: ArchivedObject, named name: String, parent: String?, properties: [(key: String, value: ArchivedValue)], skipping inherited: Set<String>
    ) throws -> Entity {
        var entity = Entity(
            name, className: try object.value(forKey: "NSClassNameForEntity").string, parentName: parent,
            isAbstract: try flag(object, "NSIsAbstract"))
        let renaming = try object.value(forKey: "NSRenamingIdentifier").string
        if let renaming, renaming != name { entity.elementID = renaming }
        entity.versionHashModifier = try object.value(forKey: "NSVersionHashModifier").string
        entity.userInfo = try userInfo(object)
        for (propertyName, value) in properties.sorted(by: { $0.key < $1.key })
        where !inherited.contains(propertyName) {
            guard var property = value.object else { throw ModelCacheError("\(name).\(propertyName) is not an archived property") }
            if property.className == "_NSPropertyDescriptionProxy", let underlying = try property.value(forKey: "NSUnderlyingProperty").object {
                property = underlying
            }
            switch property.className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
                entity.attributes.append(try attribute(property, named: propertyName, in: name))
            case "NSRelationshipDescription":
                entity.relationships.append(try relationship(property, named: propertyName))
            case "NSFetchedPropertyDescription":
                entity.fetchedProperties.append(try fetchedProperty(property, named: propertyName, in: name))
            default:
                throw ModelCacheError("\(name).\(propertyName) is a \(property.className), which this reader does not know")
            }
        }
        entity.uniquenessConstraints = try tuples(object, "NSUniqueTuples").map(UniquenessConstraint.init)
        try readIndexes(object, into: &entity)
        return entity
    }

    /// The entity's fetch indexes and compound indexes, as its model declared them. The cache adds
    /// what the framework made of them (§9.2 of the format): an index named after each indexed
    /// attribute, the indexed flag on the property of each single-property fetch index, and a
    /// fetch index named by joining its properties with `_` for each compound index (which
    /// `NSCompoundIndexes` lists too, unless the index has a relationship); those are undone.
    private func readIndexes(_ object: ArchivedObject, into entity: inout Entity) throws {
        var compound = try tuples(object, "NSCompoundIndexes")
        for index in try object.value(forKey: "NSFetchIndexDescriptions").object?.elements().compactMap(\.object) ?? [] {
            let name = try string(index, "NSIndexName")
            var elements: [FetchIndex.Element] = []
            for element in try index.value(forKey: "NSIndexElements").object?.elements().compactMap(\.object) ?? [] {
                let kind: FetchIndex.Element.Kind = try element.integer(forKey: "NSFetchIndexElementType") == 1 ? .rTree : .binary
                let ascending = try flag(element, "NSAscending")
                elements.append(FetchIndex.Element(
                    property: try element.value(forKey: "NSPropertyName").string, kind: kind, order: ascending ? .ascending : .descending,
                    location: .generated))
            }
            let properties = elements.compactMap(\.property)
            if properties == [name], entity.attribute(named: name)?.isIndexed == true || entity.relationship(named: name)?.isIndexed == true {
                continue  // the index of an indexed attribute
            }
            if properties.count > 1, name == properties.joined(separator: "_") {
                if !compound.contains(properties) { compound.append(properties) }
                continue  // a compound index's own
            }
            entity.fetchIndexes.append(FetchIndex(name: name, elements: elements, location: .generated))
        }
        for index in entity.fetchIndexes where index.elements.count == 1 {
            guard let property = index.elements[0].property else { continue }
            if let position = entity.attributes.firstIndex(where: { $0.name == property }) { entity.attributes[position].isIndexed = false }
            if let position = entity.relationships.firstIndex(where: { $0.name == property }) { entity.relationships[position].isIndexed = false }
        }
        // A compound index whose fetch index the entity declares itself is only its mirror.
        let declared = Set(entity.fetchIndexes.map { $0.elements.compactMap(\.property) })
        entity.compoundIndexes = compound.filter { !declared.contains($0) }.map(CompoundIndex.init)
    }

    /// An array of arrays of property names (`NSUniqueTuples`, `NSCompoundIndexes`).
    private func tuples(_ object: ArchivedObject, _ key: String) throws -> [[String]] {
        try object.value(forKey: key).object?.elements().map { try $0.object?.elements().compactMap(\.string) ?? [] } ?? []
    }

    private mutating func attribute(_ object: ArchivedObject, named name: String, in entity: String) throws -> Attribute {
        let code = try object.value(forKey: "NSAttributeType")
        guard case .integer(let number) = code, let type = Self.attributeTypes[number] else {
            throw ModelCacheError("\(entity).\(name) has the attribute type \(code), which this reader does not know")
        }
        var attribute = Attribute(name, type, isOptional: try flag(object, "NSIsOptional"), isTransient: try flag(object, "NSIsTransient"))
        try common(object, named: name, into: &attribute.elementID, &attribute.versionHashModifier, &attribute.userInfo)
        attribute.isIndexed = try flag(object, "NSIsIndexed")
        attribute.allowsCloudEncryption = try flag(object, "NSAllowsCloudEncryption")
        attribute.valueTransformerName = try object.value(forKey: "NSValueTransformerName").string
        if type == .transformable { attribute.customClassName = try object.value(forKey: "NSAttributeValueClassName").string }
        if let flags = try object.integer(forKey: "NSFlagsKey") {
            attribute.allowsExternalBinaryDataStorage = flags & 0x04 != 0
            attribute.preservesValueInHistoryOnDeletion = flags & 0x10 != 0
        }
        if type == .composite { attribute.compositeName = try composite(object, named: name, in: entity) }
        if object.className == "NSDerivedAttributeDescription" {
            attribute.isDerived = true
            attribute.derivationExpression = try ArchivedExpression.text(of: object.value(forKey: "NSDerivationExpression"))
        }
        switch try object.value(forKey: "NSDefaultValue") {
        case .null: break
        case let value where type == .transformable:
            attribute.defaultData = Data(try value.archivedAlone())
        case .data(let bytes) where type == .binary:
            attribute.defaultData = Data(bytes)
        case .string(let text): attribute.defaultValue = text
        case .integer(let number): attribute.defaultValue = type == .boolean ? (number == 0 ? "NO" : "YES") : String(number)
        case .real(let number): attribute.defaultValue = String(number)
        case .boolean(let value): attribute.defaultValue = value ? "YES" : "NO"
        case .date(let seconds): attribute.defaultDateTimeInterval = seconds
        case .object(let value) where value.className == "NSDecimalNumberPlaceholder":
            attribute.defaultValue = try Self.decimal(value)
        case .object(let value) where value.className == "NSUUID":
            guard case .data(let bytes) = try value.value(forKey: "NS.uuidbytes"), bytes.count == 16 else {
                throw ModelCacheError("\(entity).\(name)'s default UUID is damaged")
            }
            attribute.defaultValue = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                                                 bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
        case .object(let value) where value.className.hasSuffix("String"):
            attribute.defaultValue = try value.value(forKey: "NS.string").string
        case .object(let value) where try type == .composite && value.classNames.contains("NSDictionary") && value.entries().isEmpty:
            break  // a required composite's: its members' own defaults
        case let other:
            throw ModelCacheError("\(entity).\(name)'s default value (\(other.object?.className ?? "\(other)")) is not read")
        }
        return attribute
    }

    private func relationship(_ object: ArchivedObject, named name: String) throws -> Relationship {
        let destination = try object.value(forKey: "_NSDestinationEntityName").string
            ?? object.value(forKey: "NSDestinationEntity").object.map { try string($0, "NSEntityName") }
        guard let destination else { throw ModelCacheError("the relationship \(name) has no destination entity") }
        let maxCount = try object.integer(forKey: "NSMaxCount") ?? 1
        let minCount = try object.integer(forKey: "NSMinCount") ?? 0
        let rule = try object.integer(forKey: "NSDeleteRule") ?? 1
        guard let deleteRule = Self.deleteRules[rule] else { throw ModelCacheError("the relationship \(name) has the delete rule \(rule)") }
        let inverse = try object.value(forKey: "_NSInverseRelationshipName").string
        var relationship = Relationship(
            name, destination: destination, inverseName: inverse, inverseEntityName: inverse == nil ? nil : destination,
            isToMany: maxCount != 1, isOrdered: try flag(object, "NSIsOrdered"),
            minCount: minCount == 0 ? nil : minCount, maxCount: maxCount == 1 || maxCount == 0 ? nil : maxCount, deleteRule: deleteRule,
            isOptional: try flag(object, "NSIsOptional"), isTransient: try flag(object, "NSIsTransient"))
        try common(object, named: name, into: &relationship.elementID, &relationship.versionHashModifier, &relationship.userInfo)
        relationship.isIndexed = try flag(object, "NSIsIndexed")
        return relationship
    }

    /// The model-level composite holding the members of the composite attribute `object`; its name.
    /// An archive names a composite only by its property: the composite takes that name,
    /// capitalized, with the entity's before it when another composite of other members has it.
    private mutating func composite(_ object: ArchivedObject, named name: String, in entity: String) throws -> String {
        guard compositeDepth < 16 else { throw ModelCacheError("\(entity).\(name): composites nest more than 16 deep") }
        compositeDepth += 1
        defer { compositeDepth -= 1 }
        var members: [Attribute] = []
        for element in try object.value(forKey: "NSCompositeElements").object?.elements() ?? [] {
            guard let element = element.object, let memberName = try element.value(forKey: "NSPropertyName").string else {
                throw ModelCacheError("\(entity).\(name) has a member that is not an archived attribute")
            }
            members.append(try attribute(element, named: memberName, in: "\(entity).\(name)"))
        }
        let base = name.prefix(1).uppercased() + name.dropFirst()
        var candidate = base, attempt = 1
        while let existing = composites.first(where: { $0.name == candidate }) {
            if existing.attributes == members { return candidate }
            attempt += 1
            candidate = entity + base + (attempt == 2 ? "" : String(attempt - 1))
        }
        composites.append(Composite(name: candidate, attributes: members, location: .generated))
        return candidate
    }

    /// A fetched property: its fetch request's entity, predicate and order. A request that asks
    /// for more (a limit, another result type) is refused, as a model cannot say it.
    private func fetchedProperty(_ object: ArchivedObject, named name: String, in entity: String) throws -> FetchedProperty {
        let owner = "the fetched property \(entity).\(name)"
        guard let requestObject = try object.value(forKey: "NSFetchRequest").object else { throw ModelCacheError("\(owner) has no fetch request") }
        let fetch = try ArchivedFetch(requestObject, entityName: object.value(forKey: "_NSFetchRequestEntityName").string, of: owner)
        guard fetch.resultType == 0, fetch.fetchLimit == 0, fetch.fetchBatchSize == 0, fetch.flags == ArchivedFetch.defaultFlags else {
            throw ModelCacheError("\(owner) fetches with settings a fetched property of a model does not hold")
        }
        var request = FetchedProperty.Request(
            name: "fetchedPropertyFetchRequest", entityName: fetch.entityName, predicate: fetch.predicate, location: .generated)
        request.sortDescriptors = fetch.sortDescriptors
        var property = FetchedProperty(name: name, isOptional: try flag(object, "NSIsOptional"), fetchRequest: request, location: .generated)
        property.userInfo = try userInfo(object)
        return property
    }

    /// A fetch request template of the model, named `name`.
    private func template(_ value: ArchivedValue, named name: String) throws -> FetchRequestTemplate {
        let owner = "the fetch request template \(name)"
        guard let object = value.object else { throw ModelCacheError("\(owner) is not an archived fetch request") }
        let fetch = try ArchivedFetch(object, entityName: nil, of: owner)
        guard let resultType = FetchRequestTemplate.ResultType(rawValue: fetch.resultType) else {
            throw ModelCacheError("\(owner) has the result type \(fetch.resultType)")
        }
        var template = FetchRequestTemplate(name: name, entityName: fetch.entityName, predicate: fetch.predicate, location: .generated)
        template.sortDescriptors = fetch.sortDescriptors
        template.resultType = resultType
        template.fetchLimit = fetch.fetchLimit
        template.fetchBatchSize = fetch.fetchBatchSize
        template.returnsDistinctResults = fetch.flags & 1 != 0
        template.includesSubentities = fetch.flags & 2 != 0
        template.includesPropertyValues = fetch.flags & 4 != 0
        template.returnsObjectsAsFaults = fetch.flags & 8 != 0
        template.includesPendingChanges = fetch.flags & 16 != 0
        return template
    }

    /// What every property description holds besides its kind: renaming identifier, version hash
    /// modifier, user info.
    private func common(_ object: ArchivedObject, named name: String, into elementID: inout String?, _ modifier: inout String?, _ info: inout UserInfo) throws {
        if let renaming = try object.value(forKey: "NSRenamingIdentifier").string, renaming != name { elementID = renaming }
        modifier = try object.value(forKey: "NSVersionHashModifier").string
        info = try userInfo(object)
    }

    private func userInfo(_ object: ArchivedObject) throws -> UserInfo {
        let entries = try dictionary(object.value(forKey: "NSUserInfo"))
        if entries.isEmpty { return UserInfo() }
        return UserInfo(try (entries.count == 1 ? entries : entries.sorted { $0.key < $1.key }).map { key, value in
            UserInfo.Entry(key: key, value: try text(of: value), location: .generated)
        })
    }

    /// A user-info value as the XML's text: a scalar as a model file writes it, a list (SwiftData's
    /// enum cases) as its elements joined by `, `.
    private func text(of value: ArchivedValue, depth: Int = 0) throws -> String {
        guard depth < ArchivedExpression.depthLimit else { throw ModelCacheError("a user info value nests more than \(ArchivedExpression.depthLimit) deep") }
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "YES" : "NO"
        case .object(let object) where object.classNames.contains("NSArray"):
            return try object.elements().map { try text(of: $0, depth: depth + 1) }.joined(separator: ", ")
        default: return value.string ?? "\(value)"
        }
    }

    // MARK: Archived values

    /// The entities of `NSEntities`: an `NSKnownKeysDictionary1` in a store's cache, a dictionary
    /// in a compiled model.
    private func entities(_ value: ArchivedValue) throws -> [ArchivedObject] {
        guard let container = value.object else { throw ModelCacheError("the model has no NSEntities") }
        if container.className == "NSKnownKeysDictionary1" {
            return try container.value(forKey: "values").object?.elements().compactMap(\.object) ?? []
        }
        return try container.entries().compactMap(\.value.object)
    }

    /// A dictionary's entries by string key; none for `nil`.
    private func dictionary(_ value: ArchivedValue) throws -> [(key: String, value: ArchivedValue)] {
        guard let object = value.object else { return [] }
        return try object.entries().map { entry in
            guard let key = entry.key.string else { throw ModelCacheError("a \(object.className) has a key that is not a string") }
            return (key, entry.value)
        }
    }

    private func string(_ object: ArchivedObject, _ key: String) throws -> String {
        guard let text = try object.value(forKey: key).string else { throw ModelCacheError("a \(object.className) has no \(key)") }
        return text
    }

    /// A Boolean the archive writes only when it is YES.
    private func flag(_ object: ArchivedObject, _ key: String) throws -> Bool {
        switch try object.value(forKey: key) {
        case .boolean(let value): value
        case .integer(let value): value != 0
        default: false
        }
    }

    /// An `NSDecimalNumber`'s text: mantissa × 10^exponent, the mantissa little-endian 16-bit words.
    static func decimal(_ object: ArchivedObject) throws -> String {
        guard case .data(let bytes) = try object.value(forKey: "NS.mantissa"), case .integer(let exponent) = try object.value(forKey: "NS.exponent")
        else { throw ModelCacheError("a decimal default value is damaged") }
        var mantissa = Decimal(0)
        for (index, byte) in bytes.enumerated() { mantissa += Decimal(Int(byte)) * pow(Decimal(256), index) }
        let negative = if case .boolean(true) = try object.value(forKey: "NS.negative") { true } else { false }
        var value = mantissa * pow(Decimal(10), max(exponent, 0))
        if exponent < 0 { value = value / pow(Decimal(10), -exponent) }
        return "\(negative ? -value : value)"
    }

    static let attributeTypes: [Int: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double, 600: .float, 700: .string,
        800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri, 1800: .transformable, 2000: .objectID, 2100: .composite,
    ]

    static let deleteRules: [Int: Relationship.DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
}
