import DataModel
import StoreMigration
import StoreSchema

/// Turns a planner's decisions into the ordered steps of a plan.
///
/// Order matters: links whose storage changes are read first; source tables that are rebuilt are
/// renamed out of the way so the new tables are created under their own names (with the SQL text
/// Core Data writes, or the DDL of the store's engine); rows are copied; kept tables are
/// altered; old tables dropped; links written; then indexes, triggers and the bookkeeping tables.
/// Statements are built as `SQL` values and rendered in the engine's spelling as they are added.
struct StepBuilder {
    let planner: MigrationPlanner
    private(set) var steps: [MigrationPlan.Step] = []
    /// Source entity tables kept (altered in place), by destination table.
    private var kept: [String: String] = [:]
    /// The name each source table has while rows are copied.
    private var currentNames: [String: String] = [:]

    init(planner: MigrationPlanner) {
        self.planner = planner
    }

    private var source: StoreSchema { planner.source }
    private var destination: StoreSchema { planner.destination }
    private var snapshot: StoreSnapshot { planner.snapshot }

    private mutating func add(_ summary: String, _ statements: [SQL], copying table: String? = nil) {
        guard !statements.isEmpty else { return }
        steps.append(MigrationPlan.Step(summary: summary, statements: statements.map { MigrationPlan.Statement(sql: planner.rendered($0), copiedTable: table) }))
    }

    mutating func build() {
        chooseKeptTables()
        dropTriggers()
        readConvertedLinks()
        moveSourceTablesAside()
        for table in destination.tables where kept[table.name] == nil { rebuild(table) }
        for table in destination.tables { if let old = kept[table.name] { alter(old, into: table) } }
        dropOldTables()
        renameKeptTables()
        moveJoinTables()
        writeLinks()
        updateIndexes()
        installTriggers()
        updateBookkeeping()
    }

    // MARK: Entity tables

    /// A destination table is kept when every column of the source table that feeds it is carried
    /// into it (and no other destination table keeps that source table).
    private mutating func chooseKeptTables() {
        var claimed: Set<String> = []
        for table in destination.tables {
            guard let old = planner.feeds[table.name], !claimed.contains(old),
                  let present = snapshot.columns[old]
            else { continue }
            let sources = planner.columnSources(for: table, from: old)
            let carried = sources.compactMap(\.carriedColumn).map { $0.uppercased() }
            guard Set(carried).count == carried.count, Set(carried) == Set(present.map { $0.uppercased() }),
                  !changesType(zip(table.columns, sources), from: old)
            else { continue }
            kept[table.name] = old
            claimed.insert(old)
        }
        for table in source.tables where snapshot.columns[table.name] != nil { currentNames[table.name] = table.name }
    }

    private var keptSources: Set<String> { Set(kept.values) }

    /// Whether a carried column's type changes (an attribute of another type), which rebuilds the
    /// table: its columns take their new types and places, as Core Data lays them out.
    private func changesType(_ columns: some Sequence<(Column, ColumnSource)>, from table: String) -> Bool {
        columns.contains { column, source in
            guard case .carried(let name, .converted) = source,
                  let old = self.source.tables.first(where: { $0.name == table })?.columns.first(where: { $0.name == name })
            else { return false }
            return planner.rendered(planner.dialect.definition(of: old, model: planner.sourceModel))
                != planner.rendered(planner.definition(of: column))
        }
    }

    /// Source tables that are rebuilt get a temporary name, so their destination tables can be
    /// created under the final one; kept tables that change names move to a temporary one too.
    private mutating func moveSourceTablesAside() {
        var statements: [SQL] = []
        for table in source.tables where snapshot.columns[table.name] != nil {
            let temporary = (keptSources.contains(table.name) ? "Z_MIGRATION_KEPT_" : "Z_MIGRATION_OLD_") + table.name
            let final = kept.first { $0.value == table.name }?.key
            guard final != table.name else { continue }
            statements.append("ALTER TABLE \(name: table.name) RENAME TO \(name: temporary);")
            currentNames[table.name] = temporary
        }
        add("Source tables renamed while their rows are copied", statements)
    }

    private mutating func rebuild(_ table: EntityTable) {
        let statements = [planner.createStatement(for: table)]
        var copies: [(old: String, current: String, sql: SQL)] = []
        for old in [planner.feeds[table.name]].compactMap({ $0 }) {
            guard let current = currentNames[old] else { continue }
            let moving = planner.movingEntities(from: old, to: table.name)
            let sources = planner.columnSources(for: table, from: old)
            let values = sources.map { $0.sql("x.", planner) }.joined(separator: ", ")
            copies.append((old, current, "INSERT INTO \(name: table.name) (\(names: table.columns.map(\.name))) SELECT \(values) FROM \(name: current) AS x "
                + "WHERE \(planner.entityFilter("x.", moving.map(\.source))) AND x.\(.Z_PK) BETWEEN ? AND ?;"))
        }
        let from = planner.feeds[table.name] ?? ""
        add("\(table.name): " + (from.isEmpty ? "created (new table)" : "rebuilt in the new layout from \(from)"), statements)
        for copy in copies { add("\(table.name): rows copied from \(copy.old)", [copy.sql], copying: copy.current) }
    }

    /// Renames carried columns, appends new ones, and changes values in one `UPDATE`.
    private mutating func alter(_ old: String, into table: EntityTable) {
        guard let current = currentNames[old] else { return }
        let sources = planner.columnSources(for: table, from: old)
        var statements: [SQL] = []
        var renamed: [String] = []
        var appended: [String] = []
        // Rows of entities that leave this table (removed, or copied into another one already).
        let moving = planner.movingEntities(from: old, to: table.name)
        if moving.count < source.entities.filter({ $0.tableName == old }).count {
            statements.append("DELETE FROM \(name: current) WHERE NOT (\(planner.entityFilter("", moving.map(\.source))));")
        }
        for (column, source) in zip(table.columns, sources) {
            if let carried = source.carriedColumn {
                if carried.caseInsensitiveCompare(column.name) != .orderedSame {
                    statements.append("ALTER TABLE \(name: current) RENAME COLUMN \(name: carried) TO \(name: column.name);")
                    renamed.append("\(carried) → \(column.name)")
                }
            } else {
                statements.append("ALTER TABLE \(name: current) ADD COLUMN \(name: column.name) \(planner.definition(of: column));")
                appended.append(column.name)
            }
        }
        var assignments: [SQL] = []
        for (column, source) in zip(table.columns, sources) {
            switch source {
            // A kept column's type is the same for the engine: its values need no conversion.
            case .carried(_, .none), .carried(_, .converted(_, _, nil)), .empty: continue
            case .carried(_, let transform):
                assignments.append("\(name: column.name) = \(ColumnSource.carried(column.name, transform).sql("", planner))" as SQL)
            case .literal, .perEntity:
                assignments.append("\(name: column.name) = \(source.sql("", planner))" as SQL)
            }
        }
        if !assignments.isEmpty { statements.append("UPDATE \(name: current) SET \(assignments.joined(separator: ", "));") }
        var summary = "\(table.name): kept"
        if old != table.name { summary += " (was \(old))" }
        if !appended.isEmpty { summary += "; columns appended: \(appended.joined(separator: ", "))" }
        if !renamed.isEmpty { summary += "; columns renamed: \(renamed.joined(separator: ", "))" }
        if !assignments.isEmpty { summary += "; values updated" }
        add(summary, statements)
    }

    private mutating func dropOldTables() {
        let dropped = source.tables.filter { snapshot.columns[$0.name] != nil && !keptSources.contains($0.name) }
        add("Old tables dropped: \(dropped.map(\.name).joined(separator: ", "))",
            dropped.compactMap { currentNames[$0.name] }.map { "DROP TABLE \(name: $0);" as SQL })
    }

    private mutating func renameKeptTables() {
        var statements: [SQL] = []
        for (final, old) in kept.sorted(by: { $0.key < $1.key }) {
            guard let current = currentNames[old], current != final else { continue }
            statements.append("ALTER TABLE \(name: current) RENAME TO \(name: final);")
            currentNames[old] = final
        }
        add("Kept tables given their new names", statements)
    }

    // MARK: Relationships

    private mutating func readConvertedLinks() {
        for (reference, move) in planner.relationships.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            guard case .converted(let pairs, let extraction) = move.kind else { continue }
            let type = planner.dialect.integerType
            add("\(reference.entity).\(reference.relationship): links read before their storage changes", [
                planner.createTemporaryTable(planner.temporaryTable(pairs), columns: "s \(type), d \(type), os \(type), od \(type)"), extraction,
            ])
        }
    }

    /// Join tables that keep their storage are renamed in place (table and columns, as entity numbers
    /// change; their indexes keep their names, as Core Data leaves them); other source join tables
    /// are dropped and new ones created.
    private mutating func moveJoinTables() {
        var keptJoins: [String: (join: JoinTable, from: JoinTable)] = [:]
        for join in destination.joinTables {
            guard case .direct(let old, let declaring)? = planner.relationships[join.relationship]?.kind,
                  let from = source.joinTable(forRelationship: old.name, ofEntity: declaring), snapshot.columns[from.name] != nil
            else { continue }
            keptJoins[join.name] = (join, from)
        }
        let keptSources = Set(keptJoins.values.map(\.from.name))
        let dropped = Set(source.joinTables.map(\.name)).filter { snapshot.columns[$0] != nil && !keptSources.contains($0) }.sorted()
        add("Join tables dropped: \(dropped.joined(separator: ", "))", dropped.map { "DROP TABLE \(name: $0);" as SQL })
        var statements: [SQL] = []
        for (name, pair) in keptJoins.sorted(by: { $0.key < $1.key }) where pair.from.name != name {
            statements.append("ALTER TABLE \(name: pair.from.name) RENAME TO \(name: "Z_MIGRATION_JOIN_" + name);")
        }
        for (name, pair) in keptJoins.sorted(by: { $0.key < $1.key }) {
            let current = pair.from.name == name ? name : "Z_MIGRATION_JOIN_" + name
            guard case .direct(let old, let declaring)? = planner.relationships[pair.join.relationship]?.kind else { continue }
            let named = pair.from.relationship == RelationshipReference(entity: declaring, relationship: old.name)
            let renames: [(String?, String?)] = [
                (named ? pair.from.sourceColumn : pair.from.destinationColumn, pair.join.sourceColumn),
                (named ? pair.from.destinationColumn : pair.from.sourceColumn, pair.join.destinationColumn),
                (named ? pair.from.sourceOrderColumn : pair.from.destinationOrderColumn, pair.join.sourceOrderColumn),
                (named ? pair.from.destinationOrderColumn : pair.from.sourceOrderColumn, pair.join.destinationOrderColumn),
            ]
            for case (let before?, let after?) in renames where before != after {
                statements.append("ALTER TABLE \(name: current) RENAME COLUMN \(name: before) TO \(name: after);")
            }
            if current != name { statements.append("ALTER TABLE \(name: current) RENAME TO \(name: name);") }
        }
        add("Join tables kept: \(keptJoins.keys.sorted().joined(separator: ", ")) (renamed where entity numbers changed)", statements)
        let created = destination.joinTables.filter { keptJoins[$0.name] == nil }
        add("Join tables created: \(created.map(\.name).joined(separator: ", "))", created.map { planner.createStatement(for: $0) })
    }

    /// Writes the links read into pair tables, fills what a kept storage lacks (the entity of a
    /// destination that gained subentities, the positions of a newly ordered to-many) and removes
    /// links to rows that did not survive.
    private mutating func writeLinks() {
        for (reference, move) in planner.relationships.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            let relationship = move.relationship
            guard let ownTable = destination.table(forEntityNamed: move.entity),
                  let targetTable = destination.table(forEntityNamed: relationship.destinationEntityName)
            else { continue }
            let own = SQL.name(ownTable.name)
            let target = SQL.name(targetTable.name)
            let ownRows: SQL = "SELECT \(.Z_PK) FROM \(own) WHERE \(planner.destinationRange("", move.entity))"
            let targetRows: SQL = "SELECT \(.Z_PK) FROM \(target) WHERE \(planner.destinationRange("", relationship.destinationEntityName))"
            let key = ownTable.column(for: .foreignKey(entity: move.entity, relationship: relationship.name)).map { SQL.name($0.name) }
            let entityColumn = ownTable.column(for: .foreignEntity(entity: move.entity, relationship: relationship.name)).map { SQL.name($0.name) }
            let order = ownTable.column(for: .orderKey(entity: move.entity, relationship: relationship.name)).map { SQL.name($0.name) }
            let join = destination.joinTables.first { $0.relationship == reference }
            let hidden = targetTable.column(for: .inverselessToMany(entity: move.entity, relationship: relationship.name)).map { SQL.name($0.name) }
            var statements: [SQL] = []
            var summary = "\(reference.entity).\(reference.relationship): "
            switch move.kind {
            case .new:
                continue
            case .direct(let old, let declaring):
                summary += "links kept"
                if move.prunes {
                    if let key {
                        let cleared = [key, entityColumn, order].compactMap { $0 }.map { "\($0) = NULL" as SQL }.joined(separator: ", ")
                        statements.append("UPDATE \(own) SET \(cleared) WHERE \(key) IS NOT NULL AND \(key) NOT IN (\(targetRows));")
                    } else if let join {
                        statements.append("DELETE FROM \(name: join.name) WHERE \(name: join.sourceColumn) NOT IN (\(ownRows)) "
                            + "OR \(name: join.destinationColumn) NOT IN (\(targetRows));")
                    } else if let hidden {
                        statements.append("UPDATE \(target) SET \(hidden) = NULL WHERE \(hidden) IS NOT NULL AND \(hidden) NOT IN (\(ownRows));")
                    }
                    summary += "; links to removed objects cleared"
                }
                if let key, let entityColumn,
                   MigrationPlanner.column(.foreignEntity(entity: declaring, relationship: old.name), in: source, table: source.table(forEntityNamed: declaring)?.name ?? "") == nil
                {
                    statements.append("UPDATE \(own) SET \(entityColumn) = (SELECT t.\(.Z_ENT) FROM \(target) AS t WHERE t.\(.Z_PK) = \(own).\(key)) WHERE \(key) IS NOT NULL;")
                }
                if let key, let order,
                   MigrationPlanner.column(.orderKey(entity: declaring, relationship: old.name), in: source, table: source.table(forEntityNamed: declaring)?.name ?? "") == nil
                {
                    statements.append("UPDATE \(own) SET \(order) = (SELECT count(*) FROM \(own) AS o WHERE o.\(key) = \(own).\(key) AND o.\(.Z_PK) <= \(own).\(.Z_PK)) "
                        + "WHERE \(key) IS NOT NULL;")
                    summary += "; positions given in key order"
                }
            case .converted(let pairs, _):
                summary += "links written into their new storage"
                let ranked = pairs + "_RANKED"
                let pairsTable = planner.temporaryTable(pairs), rankedTable = planner.temporaryTable(ranked)
                statements += [
                    "DELETE FROM \(pairsTable) WHERE s NOT IN (\(ownRows)) OR d NOT IN (\(targetRows));",
                    planner.createTemporaryTable(rankedTable, as: "SELECT s, d, row_number() OVER (PARTITION BY s ORDER BY os IS NULL, os, d) AS os, "
                        + "row_number() OVER (PARTITION BY d ORDER BY od IS NULL, od, s) AS od FROM \(pairsTable)"),
                    "CREATE INDEX \(planner.temporaryTable(ranked + "_S")) ON \(name: ranked) (s, os);",
                    "CREATE INDEX \(planner.temporaryTable(ranked + "_D")) ON \(name: ranked) (d, od);",
                ]
                if let key {
                    statements.append("UPDATE \(own) SET \(key) = (SELECT p.d FROM \(rankedTable) AS p WHERE p.s = \(own).\(.Z_PK) ORDER BY p.os LIMIT 1) "
                        + "WHERE \(planner.destinationRange("", move.entity));")
                    if let entityColumn {
                        statements.append("UPDATE \(own) SET \(entityColumn) = (SELECT t.\(.Z_ENT) FROM \(target) AS t WHERE t.\(.Z_PK) = \(own).\(key)) WHERE \(key) IS NOT NULL;")
                    }
                    if let order {
                        statements.append("UPDATE \(own) SET \(order) = (SELECT p.od FROM \(rankedTable) AS p WHERE p.s = \(own).\(.Z_PK) AND p.d = \(own).\(key)) "
                            + "WHERE \(key) IS NOT NULL;")
                    }
                } else if let join {
                    let columns = [join.sourceColumn, join.destinationColumn] + [join.sourceOrderColumn, join.destinationOrderColumn].compactMap { $0 }
                    let values = ["s", "d"] + [join.sourceOrderColumn.map { _ in "od" }, join.destinationOrderColumn.map { _ in "os" }].compactMap { $0 }
                    let select: SQL = "SELECT \(verbatim: values.joined(separator: ", ")) FROM \(rankedTable)"
                    let into: SQL = "INTO \(name: join.name) (\(names: columns))"
                    statements.append(planner.dialect.insertKeepingExisting(into, select: select) + ";")
                } else if let hidden {
                    statements.append("UPDATE \(target) SET \(hidden) = (SELECT p.s FROM \(rankedTable) AS p WHERE p.d = \(target).\(.Z_PK) ORDER BY p.od LIMIT 1) "
                        + "WHERE \(planner.destinationRange("", relationship.destinationEntityName));")
                }
                statements += ["DROP TABLE \(pairsTable);", "DROP TABLE \(rankedTable);"]
            }
            add(summary, statements)
        }
    }

    // MARK: Indexes, triggers, bookkeeping

    /// Indexes of kept entity tables that the destination lacks are dropped, changed ones made again,
    /// missing ones created. Indexes of kept join tables stay, under their old names, as Core Data
    /// leaves them. A server spells an index's definition its own way: there, every wanted index of
    /// a kept table is made again.
    private mutating func updateIndexes() {
        let wanted = Dictionary(destination.indexes.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let keptEntityTables = Set(kept.values)
        var existing: Set<String> = []
        var dropped: [String] = []
        var statements: [SQL] = []
        for index in snapshot.indexes {
            let isKeptEntityTable = keptEntityTables.contains(index.table)
            let isKeptJoinTable = planner.relationships.values.contains { move in
                guard case .direct(let old, let declaring) = move.kind else { return false }
                return source.joinTable(forRelationship: old.name, ofEntity: declaring)?.name == index.table
            }
            guard isKeptEntityTable || isKeptJoinTable else { continue }
            if let target = wanted[index.name.uppercased()], planner.dialect.keepsUnchangedIndexes,
               Self.normalized(destination.createStatement(for: target)) == Self.normalized(index.sql)
            {
                existing.insert(index.name.uppercased())
            } else if isKeptEntityTable || wanted[index.name.uppercased()] != nil {
                statements.append("DROP INDEX \(name: index.name);")
                dropped.append(index.name)
            } else {
                existing.insert(index.name.uppercased())
            }
        }
        let created = destination.indexes.filter { !existing.contains($0.name.uppercased()) }
        statements += created.map { planner.createStatement(for: $0) }
        var summary = "Indexes:"
        if !created.isEmpty { summary += " created \(created.map(\.name).joined(separator: ", "))" }
        if !dropped.isEmpty { summary += (created.isEmpty ? "" : ";") + " dropped \(dropped.joined(separator: ", "))" }
        add(summary, statements)
    }

    private static func normalized(_ sql: String) -> String {
        var text = sql.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(";") { text.removeLast() }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ").uppercased()
    }

    /// Derived-attribute triggers are dropped first (tables they name are renamed and rebuilt) and
    /// made again from the destination at the end, with every derived value computed again.
    private mutating func dropTriggers() {
        let triggers = snapshot.triggers.filter { $0.hasPrefix("Z_DA_") }.sorted()
        add("Derived-attribute triggers dropped", triggers.map { "DROP TRIGGER \(name: $0);" as SQL })
    }

    private mutating func installTriggers() {
        // Elsewhere saves compute derived values, and the migration computes them again.
        guard planner.dialect.maintainsDerivedValuesWithTriggers else { return }
        let statements = destination.derivedAttributes.flatMap { $0.triggers.map(\.sql) + [$0.refreshStatement].compactMap { $0 } }.map(SQL.init(verbatim:))
        add("Derived-attribute triggers installed and their values computed", statements)
    }

    /// `Z_PRIMARYKEY` gets the destination's entities and parents; an entity keeps the name its row
    /// had (Core Data leaves a renamed entity's old name there) and its `Z_MAX`; rows of persistent
    /// history (numbers from 16001) stay. `Z_MODELCACHE` no longer describes the store, so it is emptied.
    private mutating func updateBookkeeping() {
        var statements: [SQL] = ["DELETE FROM \(.Z_PRIMARYKEY) WHERE \(.Z_ENT) < 16000;"]
        for layout in destination.entities {
            let old = planner.mapping.sourceEntities[layout.name].flatMap { planner.sourceLayouts[$0] }
                .flatMap { old in snapshot.primaryKeys.first { $0.number == old.number } }
            let name = old?.name ?? layout.name
            var maximum: SQL = "\(old?.max ?? 0)"
            if layout.superNumber == 0 {
                maximum = "\(planner.dialect.greatest)(\(maximum), coalesce((SELECT max(\(.Z_PK)) FROM \(name: layout.tableName)), 0))"
            }
            statements.append("INSERT INTO \(.Z_PRIMARYKEY) (\(.Z_ENT), \(.Z_NAME), \(.Z_SUPER), \(.Z_MAX)) VALUES "
                + "(\(layout.number), \(verbatim: SQLSyntax.stringLiteral(name)), \(layout.superNumber), \(maximum));")
        }
        if snapshot.columns["Z_MODELCACHE"] != nil { statements.append("DELETE FROM \(.Z_MODELCACHE);") }
        let renumbered = planner.numbers.filter { $0.key != $0.value }.sorted { $0.key < $1.key }.compactMap { old, new -> String? in
            source.entities.indices.contains(old - 1) ? "\(source.entities[old - 1].name) \(old) → \(new)" : nil
        }
        add("Z_PRIMARYKEY rewritten" + (renumbered.isEmpty ? "" : "; entities renumbered: \(renumbered.joined(separator: ", "))"), statements)
    }
}
