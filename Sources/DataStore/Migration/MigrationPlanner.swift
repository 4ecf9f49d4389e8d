import DataModel
import StoreMigration
import StoreSchema

/// Builds the plan that carries a store from one model version to another.
///
/// Every destination table gets its rows from the source tables of the entities that map into it.
/// A table fed by one source table, whose every column is carried over, is *kept*: columns renamed,
/// new ones appended with `ALTER TABLE … ADD COLUMN`, values changed in one `UPDATE`. Any other
/// table is *rebuilt*: created in its destination layout and filled by `INSERT … SELECT`. Rows keep
/// their keys: a destination hierarchy never takes rows from two source hierarchies (a lightweight
/// migration does not merge hierarchies), so keys stay unique per table.
/// Relationships whose storage changes (to-one ↔ to-many, a join table that appears or goes, an
/// ordering that appears) are read into temporary pair tables first and written back once every
/// table has its rows.
struct MigrationPlanner {
    let difference: ModelDifference
    let source: StoreSchema
    let destination: StoreSchema
    let snapshot: StoreSnapshot
    /// SQL literals of the destination's default values, by entity and attribute.
    let defaults: [String: [String: SQL]]

    var mapping: ModelMapping { difference.mapping }
    var sourceModel: Model { mapping.source }
    var destinationModel: Model { mapping.destination }

    let sourceLayouts: [String: EntityLayout]
    let destinationLayouts: [String: EntityLayout]
    /// The destination number of each mapped source entity number.
    let numbers: [Int: Int]
    /// The source table whose rows fill each destination table (only one: hierarchies never merge).
    let feeds: [String: String]
    /// What happens to each relationship that owns storage, by its declaring entity and name.
    private(set) var relationships: [RelationshipReference: RelationshipMove] = [:]

    init(difference: ModelDifference, snapshot: StoreSnapshot, defaults: [String: [String: SQL]]) throws(StoreError) {
        self.difference = difference
        self.snapshot = snapshot
        self.defaults = defaults
        let source = try snapshot.located(StoreSchema(model: difference.mapping.source, framework: snapshot.framework))
        let destination = StoreSchema(model: difference.mapping.destination)
        self.source = source
        self.destination = destination
        let sourceLayouts = Dictionary(source.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.sourceLayouts = sourceLayouts
        destinationLayouts = Dictionary(destination.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let sourceEntities = difference.mapping.sourceEntities
        var numbers: [Int: Int] = [:]
        var feeds: [String: String] = [:]
        for layout in destination.entities {
            guard let old = sourceEntities[layout.name].flatMap({ sourceLayouts[$0] }) else { continue }
            numbers[old.number] = layout.number
            feeds[layout.tableName] = feeds[layout.tableName] ?? old.tableName
        }
        self.numbers = numbers
        self.feeds = feeds
        relationships = RelationshipMove.plan(for: self)
    }

    // MARK: SQL of the store's engine

    var dialect: any SQLDialect { snapshot.dialect }

    /// `sql` as the store's engine reads it.
    func rendered(_ sql: SQL) -> String {
        dialect.rendered(sql)
    }

    func createStatement(for table: EntityTable) -> SQL {
        dialect.createStatement(for: table, in: destination, model: difference.mapping.destination)
    }

    func createStatement(for join: JoinTable) -> SQL {
        dialect.createStatement(for: join, in: destination)
    }

    func createStatement(for index: StoreIndex) -> SQL {
        dialect.createStatement(for: index, in: destination)
    }

    /// A column's type as `ADD COLUMN` spells it.
    func definition(of column: Column) -> SQL {
        dialect.definition(of: column, model: difference.mapping.destination)
    }

    /// A table of the migration's own, which no other connection sees, as statements name it.
    func temporaryTable(_ name: String) -> SQL {
        dialect.temporaryTable(name)
    }

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, with `columns`.
    func createTemporaryTable(_ table: SQL, columns: SQL) -> SQL {
        dialect.createTemporaryTable(table, columns: columns)
    }

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, holding the rows of `select`.
    func createTemporaryTable(_ table: SQL, as select: SQL) -> SQL {
        dialect.createTemporaryTable(table, as: select)
    }

    // MARK: Lookups

    /// The destination layout of the source entity numbered `number`.
    func destinationLayout(ofSourceNumber number: Int) -> EntityLayout? {
        numbers[number].map { destination.entities[$0 - 1] }
    }

    /// The source entities whose rows move from `sourceTable` into `destinationTable`, with their
    /// destination layouts.
    func movingEntities(from sourceTable: String, to destinationTable: String) -> [(source: EntityLayout, destination: EntityLayout)] {
        source.entities.filter { $0.tableName == sourceTable }.compactMap { old in
            destinationLayout(ofSourceNumber: old.number).flatMap { $0.tableName == destinationTable ? (old, $0) : nil }
        }
    }

    /// Whether some rows of the source entity `sourceName` or its subentities do not become rows of
    /// the destination entity `destinationName` or its subentities: references to them must go.
    func losesRows(from sourceName: String, into destinationName: String) -> Bool {
        guard let old = sourceLayouts[sourceName], let new = destinationLayouts[destinationName] else { return true }
        return source.entities.filter { old.subtreeNumbers.contains($0.number) }.contains { layout in
            guard let mapped = numbers[layout.number] else { return true }
            return !new.subtreeNumbers.contains(mapped)
        }
    }

    /// `CASE <expression> WHEN old THEN new … ELSE <expression> END` over the entity numbers that
    /// change, or the expression itself when none does.
    func renumbering(_ expression: SQL) -> SQL {
        let changed = numbers.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        guard !changed.isEmpty else { return expression }
        return "CASE \(expression) \(changed.map { "WHEN \($0.key) THEN \($0.value)" as SQL }.joined(separator: " ")) ELSE \(expression) END"
    }

    /// `Z_ENT IN (…)` for the source rows of the given source layouts.
    func entityFilter(_ prefix: String, _ layouts: [EntityLayout]) -> SQL {
        let numbers = layouts.map(\.number).sorted()
        if numbers.count == 1 { return "\(verbatim: prefix)\(.Z_ENT) = \(numbers[0])" }
        return "\(verbatim: prefix)\(.Z_ENT) IN (\(verbatim: numbers.map(String.init).joined(separator: ", ")))"
    }

    /// `Z_ENT BETWEEN a AND b` for the destination entity `name` and its subentities.
    func destinationRange(_ prefix: String, _ name: String) -> SQL {
        guard let layout = destinationLayouts[name] else { return dialect.truth(false) }
        let range = layout.subtreeNumbers
        return range.count == 1
            ? "\(verbatim: prefix)\(.Z_ENT) = \(range.lowerBound)" : "\(verbatim: prefix)\(.Z_ENT) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
    }

    /// The source column holding `attribute` of the source entity `entity` (own or inherited).
    func sourceColumn(ofAttribute attribute: String, entity: String) -> Column? {
        guard let declaring = sourceModel.declaringEntityName(ofProperty: attribute, inEntityNamed: entity) else { return nil }
        return source.column(forAttribute: attribute, ofEntity: declaring)
    }

    /// The column of `role` in a table of `schema`.
    static func column(_ role: Column.Role, in schema: StoreSchema, table: String) -> Column? {
        schema.tables.first { $0.name == table }?.column(for: role)
    }
}
