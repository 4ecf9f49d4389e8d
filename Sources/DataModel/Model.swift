/// A Core Data model: one version of an `.xcdatamodeld`, or one `.xcdatamodel`.
///
/// A plain value: build one by hand in tests, or get one from `DataModelParser`. Entities keep document
/// order; lookups by name go through an index rebuilt whenever `entities` changes.
public struct Model: Sendable, Equatable {
    /// The `contents` file this model was read from (as the user named it), or a label for models built in code.
    public var path: String
    /// The version's name when read from an `.xcdatamodeld` (`Library 2`), else nil.
    public var versionName: String?
    public var header: ModelHeader
    public var entities: [Entity] { didSet { index = EntityIndex(entities) } }
    public var composites: [Composite]
    public var fetchRequestTemplates: [FetchRequestTemplate]
    public var configurations: [Configuration]
    /// The legacy `<elements>` diagram layout.
    public var diagramLayout: [DiagramElement]
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    private var index: EntityIndex

    public init(
        path: String,
        versionName: String? = nil,
        header: ModelHeader = ModelHeader(),
        entities: [Entity] = [],
        composites: [Composite] = [],
        fetchRequestTemplates: [FetchRequestTemplate] = [],
        configurations: [Configuration] = [],
        location: SourceLocation? = nil
    ) {
        self.path = path
        self.versionName = versionName
        self.header = header
        self.entities = entities
        self.composites = composites
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
        diagramLayout = []
        self.location = location ?? SourceLocation(file: path)
        index = EntityIndex(entities)
    }

    /// The entity named `name` (the first, when a broken model declares it twice).
    public func entity(named name: String) -> Entity? {
        index.positions[name].map { entities[$0] }
    }

    /// The position in `entities` of the entity named `name` (the first, when a broken model declares
    /// it twice): for code that reads entities in place rather than copying them out.
    public func position(ofEntityNamed name: String) -> Int? {
        index.positions[name]
    }

    /// The composite named `name`.
    public func composite(named name: String) -> Composite? {
        composites.first { $0.name == name }
    }

    public static func == (lhs: Model, rhs: Model) -> Bool {
        lhs.path == rhs.path && lhs.versionName == rhs.versionName && lhs.header == rhs.header
            && lhs.entities == rhs.entities && lhs.composites == rhs.composites
            && lhs.fetchRequestTemplates == rhs.fetchRequestTemplates
            && lhs.configurations == rhs.configurations && lhs.diagramLayout == rhs.diagramLayout
            && lhs.unknownXML == rhs.unknownXML && lhs.location == rhs.location
    }

    var entityIndex: EntityIndex { index }
}

/// Name → position and parent → children lookups for a model's entities.
struct EntityIndex: Sendable {
    var positions: [String: Int] = [:]
    var children: [String: [Int]] = [:]

    init(_ entities: [Entity]) {
        positions.reserveCapacity(entities.count)
        for (offset, entity) in entities.enumerated() where positions[entity.name] == nil {
            positions[entity.name] = offset
        }
        for (offset, entity) in entities.enumerated() {
            if let parent = entity.parentName { children[parent, default: []].append(offset) }
        }
    }
}

extension Model: Encodable {
    private enum CodingKeys: String, CodingKey {
        case path, versionName, header, entities, composites, fetchRequestTemplates, configurations
        case diagramLayout, unknownXML, location
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(versionName, forKey: .versionName)
        try container.encode(header, forKey: .header)
        try container.encode(entities, forKey: .entities)
        try container.encode(composites, forKey: .composites)
        try container.encode(fetchRequestTemplates, forKey: .fetchRequestTemplates)
        try container.encode(configurations, forKey: .configurations)
        try container.encode(diagramLayout, forKey: .diagramLayout)
        try container.encodeIfPresent(unknownXML, forKey: .unknownXML)
        try container.encode(location, forKey: .location)
    }
}
