import DataModel
import Foundation
import GRDB
import StoreMigration
import StoreSchema

/// Plans and runs a lightweight migration on an open database, inside the caller's transaction.
enum StoreMigrator {
    /// Rows copied per statement of a long copy, so progress can be reported between them.
    static let copyChunk: Int64 = 100_000

    /// The plan that carries the store in `db`, written by `source`, to `destination`.
    static func plan(_ db: Database, from source: Model, to destination: Model) throws -> MigrationPlan {
        let difference = ModelDifference(from: source, to: destination)
        guard difference.isInferable else { throw MigrationError.notInferable(difference.blockingChanges) }
        let metadata = try PersistentStore.readMetadata(db)
        let snapshot = try StoreSnapshot(db, framework: FrameworkVersion(metadata.frameworkVersion ?? FrameworkVersion.current.number))
        return MigrationPlanner(difference: difference, snapshot: snapshot, defaults: defaults(of: destination)).plan()
    }

    /// Runs `plan`: checks the data first, then every statement, then writes the destination's
    /// metadata and checks that every table and column the destination needs is there.
    static func run(_ plan: MigrationPlan, destination: Model, in db: Database, progress: MigrationProgress?) throws {
        var blocked: [MigrationError.Blocked] = []
        for precondition in plan.preconditions {
            let rows = try Int.fetchOne(db, sql: precondition.countSQL) ?? 0
            if rows > 0 { blocked.append(MigrationError.Blocked(change: precondition.change, rows: rows)) }
        }
        guard blocked.isEmpty else { throw MigrationError.dataPreventsMigration(blocked) }
        for (number, step) in plan.steps.enumerated() {
            progress?(MigrationReport(step: number + 1, stepCount: plan.steps.count, summary: step.summary, rowsCopied: nil))
            for statement in step.statements {
                guard let table = statement.copiedTable else {
                    try db.execute(sql: statement.sql)
                    continue
                }
                try copy(statement, from: table, in: db) { copied, total in
                    progress?(MigrationReport(step: number + 1, stepCount: plan.steps.count, summary: step.summary, rowsCopied: (copied, total)))
                }
            }
        }
        try HistoryMigration.run(plan.difference.mapping, in: db)
        try writeMetadata(of: destination, in: db)
        let schema = try PersistentStore.locatingJoinTables(of: StoreSchema(model: destination), in: db)
        try PersistentStore.checkStorage(of: schema, in: db)
    }

    /// Runs a copy in ranges of keys of its source table.
    private static func copy(_ statement: MigrationPlan.Statement, from table: String, in db: Database, report: (Int64, Int64) -> Void) throws {
        let row = try Row.fetchOne(db, sql: "SELECT min(Z_PK), max(Z_PK), count(*) FROM \(identifier(table))")
        let total: Int64 = row?[2] ?? 0
        guard let lowest: Int64 = row?[0], let highest: Int64 = row?[1] else {
            try db.execute(sql: statement.sql.replacingOccurrences(of: "{range}", with: "1"))
            return
        }
        var start = lowest
        var copied: Int64 = 0
        while start <= highest {
            let end = start + copyChunk - 1
            try db.execute(sql: statement.sql.replacingOccurrences(of: "{range}", with: "x.Z_PK BETWEEN \(start) AND \(end)"))
            copied += Int64(db.changesCount)
            report(copied, total)
            start = end + 1
        }
    }

    /// The destination's version hashes and identifiers replace the source's; every other key
    /// (an app's own among them) stays.
    private static func writeMetadata(of model: Model, in db: Database) throws {
        var metadata = try PersistentStore.readMetadata(db)
        let fresh = StoreMetadata(model: model)
        for key in [StoreMetadata.Key.versionHashes, StoreMetadata.Key.versionHashesVersion, StoreMetadata.Key.versionHashesDigest,
                    StoreMetadata.Key.versionChecksum, StoreMetadata.Key.versionIdentifiers, StoreMetadata.Key.frameworkVersion,
                    StoreMetadata.Key.writer]
        {
            metadata.entries[key] = fresh.entries[key]
        }
        try db.execute(
            sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT min(Z_VERSION) FROM Z_METADATA)",
            arguments: [Data(metadata.binaryPropertyList)])
    }

    /// SQL literals of every default value of `model`, by declaring entity and attribute.
    private static func defaults(of model: Model) -> [String: [String: String]] {
        let entities = EntityDescriptionBuilder(model: model, schema: StoreSchema(model: model), classes: []).build()
        var literals: [String: [String: String]] = [:]
        for entity in entities {
            for attribute in entity.attributes where attribute.entityName == entity.name && !attribute.isTransient {
                guard let literal = sqlLiteral(attribute.defaultValue.databaseValue) else { continue }
                literals[entity.name, default: [:]][attribute.name] = literal
            }
        }
        return literals
    }

    private static func sqlLiteral(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .int64(let integer): String(integer)
        case .double(let double): double.isFinite ? "\(double)" : (double > 0 ? "9e999" : "-9e999")
        case .string(let string): SQLSyntax.stringLiteral(string)
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
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
