import DataModel

/// The SQLite layout Core Data uses for a model, as values: entity numbers, tables and their columns,
/// join tables and indexes.
///
/// The single source of truth for the store: the generator prints it as DDL and the runtime builds
/// its queries from it, so both always agree with each other and with stores Core Data wrote.
///
///     let schema = StoreSchema(model: model)
///     print(schema.sql())
public struct StoreSchema: Sendable {
    /// Every entity, in number order.
    public var entities: [EntityLayout]
    /// One table per root entity, in the roots' number order.
    public var tables: [EntityTable]
    public var joinTables: [JoinTable]
    public var indexes: [StoreIndex]
    /// The triggers that keep derived attributes current, per attribute.
    public var derivedAttributes: [DerivedAttributeTriggers]

    /// The layout a store of `model` has when `framework` created it (new stores: ``FrameworkVersion/current``).
    public init(model: Model, framework: FrameworkVersion = .current) {
        self = StoreSchemaBuilder(model: model, framework: framework).build()
    }

    init(
        entities: [EntityLayout], tables: [EntityTable], joinTables: [JoinTable], indexes: [StoreIndex],
        derivedAttributes: [DerivedAttributeTriggers] = []
    ) {
        self.entities = entities
        self.tables = tables
        self.joinTables = joinTables
        self.indexes = indexes
        self.derivedAttributes = derivedAttributes
    }

    /// The layout of the entity named `name`.
    public func layout(ofEntityNamed name: String) -> EntityLayout? {
        entities.first { $0.name == name }
    }

    /// The table holding the rows of the entity named `name`.
    public func table(forEntityNamed name: String) -> EntityTable? {
        guard let layout = layout(ofEntityNamed: name) else { return nil }
        return tables.first { $0.name == layout.tableName }
    }

    /// The column of `attribute` of the entity named `entity` (declared there, not inherited).
    public func column(forAttribute attribute: String, ofEntity entity: String) -> Column? {
        table(forEntityNamed: entity)?.column(for: .attribute(entity: entity, attribute: attribute))
    }

    /// The join table of a many-to-many relationship, from either side.
    public func joinTable(forRelationship relationship: String, ofEntity entity: String) -> JoinTable? {
        let reference = RelationshipReference(entity: entity, relationship: relationship)
        return joinTables.first { $0.relationship == reference || $0.inverse == reference }
    }
}
