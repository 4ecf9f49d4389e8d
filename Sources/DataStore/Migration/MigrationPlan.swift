import StoreMigration

/// How a store is carried from one model version to the next: the model differences, what each
/// table goes through, and the SQL, run in one transaction.
///
/// Print it to read it before anything is touched (`datamodel-gen migrate --dry-run` does):
/// cheap changes are `ALTER TABLE`s, a table whose columns go away is rebuilt by copy, as Core Data
/// rebuilds it.
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// A statement and what it does. A copy of rows names its source table, so that long copies
    /// run in ranges of keys and report progress.
    public struct Statement: Sendable {
        public var sql: String
        /// For `INSERT … SELECT … FROM <table> AS x WHERE … AND x.Z_PK BETWEEN ? AND ?` copies:
        /// the source table, whose rows are copied in ranges of keys, bound to the two placeholders.
        public var copiedTable: String?
    }

    /// A check of a change the store's data must allow, run in the migration's transaction before
    /// anything changes: the objects in the change's way, of which there must be none.
    public struct Precondition: Sendable {
        public var change: ModelChange
        /// `SELECT k …`: the keys (`Z_PK`) of the objects in the way.
        public var blockingRowsSQL: String
        /// What the check found when the plan was made: the number of objects in the way, and the
        /// first few keys.
        public var objectsInTheWay = 0
        public var firstKeys: [Int64] = []
    }

    /// One step of the plan, for people: `ZCAR: rebuilt by copy (columns removed: ZCOLOR)`.
    public struct Step: Sendable {
        public var summary: String
        public var statements: [Statement]
    }

    public var sourceVersion: String
    public var destinationVersion: String
    public var difference: ModelDifference
    public var preconditions: [Precondition]
    public var steps: [Step]

    /// Every statement, in order.
    public var statements: [Statement] {
        steps.flatMap(\.statements)
    }

    /// The plan as a person reads it, then its SQL.
    public var description: String {
        var lines = ["Migration \(sourceVersion) → \(destinationVersion)"]
        lines.append(difference.changes.isEmpty ? "No model changes." : "Model changes:")
        lines += difference.changes.map { "  \($0)" }
        if !preconditions.isEmpty {
            lines.append("Checked first:")
            lines += preconditions.map { "  \($0.change.subject): \(conditionText($0.change)): \(MigrationError.objects($0.objectsInTheWay, keys: $0.firstKeys))" }
        }
        lines.append("Steps (one transaction):")
        lines += steps.map { "  - \($0.summary)" }
        lines.append("SQL:")
        lines += statements.map(\.sql)
        return lines.joined(separator: "\n")
    }

    private func conditionText(_ change: ModelChange) -> String {
        if case .inferredIfData(let condition) = change.inference { condition } else { change.detail }
    }
}
