import DataModel
import Foundation
import GRDB
import StoreMigration
import StoreSchema

/// Plans and runs a lightweight migration on an open database, inside the caller's transaction.
enum StoreMigrator {
    /// Rows copied per statement of a long copy, so progress can be reported between them.
    static let copyChunk: Int64 = 100_000

    /// The plan that carries the store in `database`, written by `source`, to `destination`.
    static func plan(_ database: MigrationDatabase, from source: Model, to destination: Model) throws -> MigrationPlan {
        let names = layoutNames(of: [source, destination])
        let difference = ModelDifference(from: source, to: destination)
        guard difference.isInferable else { throw MigrationError.notInferable(difference.blockingChanges) }
        let metadata = try PersistentStore.readMetadata(database)
        let snapshot = try StoreSnapshot(
            database, framework: FrameworkVersion(metadata.frameworkVersion ?? FrameworkVersion.current.number),
            names: names)
        var plan = try MigrationPlanner(difference: difference, snapshot: snapshot, defaults: defaults(of: destination, in: database.dialect)).plan()
        for index in plan.preconditions.indices { try check(&plan.preconditions[index], in: database) }
        return plan
    }

    /// The number of objects in the way of `precondition`'s change, and the first few keys.
    private static func check(_ precondition: inout MigrationPlan.Precondition, in database: MigrationDatabase) throws {
        let rows = SQL(verbatim: precondition.blockingRowsSQL)
        precondition.objectsInTheWay = Int(try database.integer("SELECT count(*) FROM (\(rows)) AS blocking") ?? 0)
        guard precondition.objectsInTheWay > 0 else { return }
        var keys: [Int64] = []
        try database.rows("SELECT k FROM (\(rows)) AS blocking ORDER BY k LIMIT \(shownKeys)", []).forEach { keys.append($0.int64(0)) }
        precondition.firstKeys = keys
    }

    /// How many keys of the objects in a change's way an error names.
    static let shownKeys = 5

    /// Runs `plan`: checks the data first, then every statement; carries the persistent history
    /// over; on a server, computes every derived value again (a file's triggers do it there); then
    /// writes the destination's metadata and checks that every table and column the destination
    /// needs is there.
    static func run(_ plan: MigrationPlan, destination: Model, in database: MigrationDatabase, progress: MigrationProgress?) throws {
        let names = layoutNames(of: [plan.difference.mapping.source, destination])
        // The plan's checks ran in this transaction: nothing has changed the store since.
        let blocked = plan.preconditions.filter { $0.objectsInTheWay > 0 }.map {
            MigrationError.Blocked(change: $0.change, rows: $0.objectsInTheWay, firstKeys: $0.firstKeys)
        }
        guard blocked.isEmpty else { throw MigrationError.dataPreventsMigration(blocked) }
        for (number, step) in plan.steps.enumerated() {
            progress?(MigrationReport(step: number + 1, stepCount: plan.steps.count, summary: step.summary, rowsCopied: nil))
            for statement in step.statements {
                guard let table = statement.copiedTable else {
                    try database.execute(SQL(verbatim: statement.sql), [])
                    continue
                }
                try copy(statement, from: table, in: database) { copied, total in
                    progress?(MigrationReport(step: number + 1, stepCount: plan.steps.count, summary: step.summary, rowsCopied: (copied, total)))
                }
            }
        }
        let migrated = try StoreSnapshot(database, framework: .current, names: names)
        try HistoryMigration.run(plan.difference.mapping, in: database, snapshot: migrated)
        if !database.dialect.maintainsDerivedValuesWithTriggers {
            // Without triggers, derived values are computed here, in the layout as the store names it.
            let schema = try migrated.located(StoreSchema(model: destination))
            let entities = EntityDescriptionBuilder(model: destination, schema: schema, classes: []).build()
            try DerivedValueComputation.refreshAll(of: entities, in: destination, transaction: database)
        }
        try writeMetadata(of: destination, in: database)
        // The history's tables are not the layout's: what the history added is not looked for.
        if let missing = migrated.missingStorage(of: StoreSchema(model: destination)) { throw missing }
    }

    /// Runs a copy in ranges of keys of its source table, which it takes as its two arguments.
    private static func copy(_ statement: MigrationPlan.Statement, from table: String, in database: MigrationDatabase, report: (Int64, Int64) -> Void) throws {
        var bounds: (lowest: Int64, highest: Int64, total: Int64)?
        try database.rows("SELECT min(\(.Z_PK)), max(\(.Z_PK)), count(*) FROM \(name: table)", []).forEach { row in
            if !row.isNull(0) { bounds = (row.int64(0), row.int64(1), row.int64(2)) }
        }
        // An empty table has nothing to copy.
        guard let (lowest, highest, total) = bounds else { return }
        var start = lowest
        var copied: Int64 = 0
        while start <= highest {
            let end = start + copyChunk - 1
            copied += Int64(try database.execute(SQL(verbatim: statement.sql), [start.databaseValue, end.databaseValue]))
            report(copied, total)
            start = end + 1
        }
    }

    /// The destination's version hashes and identifiers replace the source's; every other key
    /// (an app's own among them) stays.
    private static func writeMetadata(of model: Model, in database: MigrationDatabase) throws {
        var metadata = try PersistentStore.readMetadata(database)
        let fresh = StoreMetadata(model: model)
        for key in [StoreMetadata.Key.versionHashes, StoreMetadata.Key.versionHashesVersion, StoreMetadata.Key.versionHashesDigest,
                    StoreMetadata.Key.versionChecksum, StoreMetadata.Key.versionIdentifiers, StoreMetadata.Key.frameworkVersion,
                    StoreMetadata.Key.writer]
        {
            metadata.entries[key] = fresh.entries[key]
        }
        try database.execute(
            "UPDATE \(.Z_METADATA) SET \(.Z_PLIST) = ? WHERE \(.Z_VERSION) = (SELECT min(\(.Z_VERSION)) FROM \(.Z_METADATA))",
            [Data(metadata.binaryPropertyList).databaseValue])
    }

    /// Every table, column and index name the layouts of `models` have.
    static func layoutNames(of models: [Model]) -> Set<String> {
        layoutNames(of: models.map { StoreSchema(model: $0) })
    }

    /// Every table, column and index name of `schemas`.
    static func layoutNames(of schemas: [StoreSchema]) -> Set<String> {
        var names: Set<String> = []
        for schema in schemas {
            names.formUnion(schema.tables.flatMap { [$0.name] + $0.columns.map(\.name) })
            names.formUnion(schema.joinTables.flatMap { [$0.name] + $0.columnNames })
            names.formUnion(schema.indexes.map(\.name))
        }
        return names
    }

    /// SQL literals of every default value of `model`, by declaring entity and attribute, as
    /// `dialect` writes them.
    private static func defaults(of model: Model, in dialect: any SQLDialect) -> [String: [String: SQL]] {
        let entities = EntityDescriptionBuilder(model: model, schema: StoreSchema(model: model), classes: []).build()
        var literals: [String: [String: SQL]] = [:]
        for entity in entities {
            for attribute in entity.attributes where attribute.entityName == entity.name && !attribute.isTransient {
                guard let literal = dialect.literal(attribute.defaultValue, type: attribute.type) else { continue }
                literals[entity.name, default: [:]][attribute.name] = literal
            }
        }
        return literals
    }
}

/// How a migration advances: the step running, and for long copies the rows copied so far.
public struct MigrationReport: Sendable, CustomStringConvertible {
    /// 1-based.
    public var step: Int
    public var stepCount: Int
    public var summary: String
    /// Rows copied so far by the step, and the rows it copies.
    public var rowsCopied: (copied: Int64, total: Int64)?

    public var description: String {
        let rows = rowsCopied.map { " (\($0.copied) of \($0.total) rows)" } ?? ""
        return "[\(step)/\(stepCount)] \(summary)\(rows)"
    }
}

/// Receives a migration's progress reports.
public typealias MigrationProgress = @Sendable (MigrationReport) -> Void
