import DataModel

/// The triggers that keep one derived attribute's column current, as Core Data's store does
/// (format reference §2.8): named `Z_DA_<TABLE>_<Entity>_<attribute>_<KIND>`, each updating the
/// column and then reporting every row it changed through the SQL function
/// `NSCoreDataDATriggerUpdatedAffectedObjectValue(table, Z_ENT, Z_PK, attribute, value)` (or its
/// `…InsertUpdated…` twin when the row is being inserted), so that the runtime can update the
/// objects in memory.
///
/// The kinds follow the reference: `INSERT`/`UPDATE` for values read from the row itself or through a
/// to-one relationship (plus `PARAMETER_UPDATE` when the destination's value changes), and
/// `SOURCE_INSERT`, `PARAMETER_INSERT`, `UPDATE_INCREMENT`, `UPDATE_DECREMENT`, `DELETE` (plus
/// `PARAMETER_UPDATE` for sums) for aggregates over a to-many relationship. The bodies are
/// DataModelKit's own; Core Data's exact text is not known.
public struct DerivedAttributeTriggers: Sendable, Hashable {
    /// One `CREATE TRIGGER IF NOT EXISTS` statement and the trigger's name.
    public struct Trigger: Sendable, Hashable {
        public var name: String
        public var sql: String
    }

    public var entity: String
    public var attribute: String
    /// The table and column holding the value.
    public var table: String
    public var column: String
    public var triggers: [Trigger]
    /// An `UPDATE` that computes the value of every existing row, for a store that gains the
    /// triggers after rows were written; `nil` for `now()`, whose past values cannot be known.
    public var refreshStatement: String?
}

/// The SQL functions the triggers call. A connection that writes a store with derived attributes
/// must register them (the runtime does; Core Data registers the two `NSCoreData…` reporting
/// functions and `NSCoreDataNow` itself).
public enum DerivedAttributeFunctions {
    /// `(table, entityNumber, primaryKey, attribute, value)` for a row changed by an update.
    public static let updatedValue = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
    /// The same for a row changed while it is being inserted.
    public static let insertedValue = "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"
    /// `()`: the current time in seconds since 2001-01-01 00:00:00 UTC.
    public static let now = "NSCoreDataNow"
    /// `(name, text)`: `text` transformed by the `canonical`, `lowercase` or `uppercase` derivation.
    /// DataModelKit's own: Core Data's name for these is not known.
    public static let text = "DSDERIVEDTEXT"
}

extension StoreSchemaBuilder {
    /// The triggers of every derived attribute the store can keep current, in entity-number order,
    /// for the entities numbered `entityNumbers` (those that have derived attributes).
    func derivedAttributeTriggers(
        tables: [EntityTable], joinTables: [JoinTable], entityNumbers: [Int]
    ) -> [DerivedAttributeTriggers] {
        var result: [DerivedAttributeTriggers] = []
        let schema = StoreSchema(entities: layouts, tables: tables, joinTables: joinTables, indexes: [])
        for number in entityNumbers {
            let layout = layouts[number - 1], entity = model.entities[positions[number - 1]]
            for attribute in entity.attributes where attribute.isDerived && attribute.isPersistent {
                guard case .success(let derivation) = model.derivation(of: attribute, in: entity),
                      let table = tables.first(where: { $0.name == layout.tableName }),
                      let column = table.column(for: .attribute(entity: entity.name, attribute: attribute.name))?.name
                else { continue }
                var maker = DerivedTriggerMaker(
                    model: model, layout: layout, attribute: attribute.name, table: table, column: column, schema: schema)
                if let triggers = maker.make(derivation) { result.append(triggers) }
            }
        }
        return result
    }
}

/// Builds the triggers of one derived attribute.
private struct DerivedTriggerMaker {
    let model: Model
    let layout: EntityLayout
    let attribute: String
    let table: EntityTable
    let column: String
    /// The tables and layouts built so far, to find the columns the expression reads.
    let schema: StoreSchema
    var triggers: [DerivedAttributeTriggers.Trigger] = []

    mutating func make(_ derivation: Derivation) -> DerivedAttributeTriggers? {
        var refresh: String?
        switch derivation {
        case .now:
            let set = assign("\(DerivedAttributeFunctions.now)()", at: "NEW.Z_PK")
            add("INSERT", "INSERT ON \(identifier(table.name))", when: rowFilter("NEW"), set(true))
            add("UPDATE", "UPDATE OF Z_OPT ON \(identifier(table.name))", when: rowFilter("NEW"), set(false))
        case .text(let function, let source):
            guard let statement = read(source, through: { "\(DerivedAttributeFunctions.text)('\(function.rawValue)', \($0))" }) else { return nil }
            refresh = statement
        case .value(let source):
            guard let statement = read(source, through: { $0 }) else { return nil }
            refresh = statement
        case .count(let relationship, let owner):
            guard let members = members(of: relationship, owner: owner) else { return nil }
            refresh = aggregate(members, value: "COUNT(*)", counting: true)
        case .sum(let relationship, let owner, let summed, let summedOwner):
            guard let members = members(of: relationship, owner: owner),
                  let destination = schema.layout(ofEntityNamed: summedOwner),
                  let summedColumn = schema.table(forEntityNamed: summedOwner)?
                      .column(for: .attribute(entity: summedOwner, attribute: summed.name))?.name,
                  schema.layout(ofEntityNamed: relationship.destinationEntityName)?.tableName == destination.tableName
            else { return nil }
            refresh = aggregate(members, value: "IFNULL(SUM(d.\(identifier(summedColumn))), 0)", counting: false, summedColumn: summedColumn)
        }
        return DerivedAttributeTriggers(
            entity: layout.name, attribute: attribute, table: table.name, column: column, triggers: triggers, refreshStatement: refresh)
    }

    // MARK: Values read from the row or through a to-one relationship

    /// Triggers for `transform(source)`; the refresh statement.
    private mutating func read(_ source: DerivationSource, through transform: (String) -> String) -> String? {
        guard let sourceTable = schema.table(forEntityNamed: source.attributeOwner),
              let sourceColumn = sourceTable.column(for: .attribute(entity: source.attributeOwner, attribute: source.attribute.name))?.name
        else { return nil }
        let tableName = identifier(table.name)
        guard let relationship = source.relationship, let relationshipOwner = source.relationshipOwner else {
            // The row's own attribute.
            let set = assign(transform(identifier(sourceColumn)), at: "NEW.Z_PK")
            add("INSERT", "INSERT ON \(tableName)", when: rowFilter("NEW"), set(true))
            add("UPDATE", "UPDATE OF \(identifier(sourceColumn)) ON \(tableName)", when: rowFilter("NEW"), set(false))
            return "UPDATE \(tableName) SET \(identifier(column)) = \(transform(identifier(sourceColumn)))\(whereFilter(prefix: " WHERE "));"
        }
        guard let foreignKey = table.column(for: .foreignKey(entity: relationshipOwner, relationship: relationship.name))?.name
        else { return nil }
        let read = "(SELECT d.\(identifier(sourceColumn)) FROM \(identifier(sourceTable.name)) d WHERE d.Z_PK = \(tableName).\(identifier(foreignKey)))"
        let set = assign(transform(read), at: "NEW.Z_PK")
        add("INSERT", "INSERT ON \(tableName)", when: rowFilter("NEW"), set(true))
        add("UPDATE", "UPDATE OF \(identifier(foreignKey)) ON \(tableName)", when: rowFilter("NEW"), set(false))
        let pointing = "\(identifier(foreignKey)) = NEW.Z_PK" + whereFilter(prefix: " AND ")
        add(
            "PARAMETER_UPDATE", "UPDATE OF \(identifier(sourceColumn)) ON \(identifier(sourceTable.name))",
            when: filter(schema.layout(ofEntityNamed: source.attributeOwner), in: sourceTable, "NEW"),
            ["UPDATE \(tableName) SET \(identifier(column)) = \(transform("NEW." + identifier(sourceColumn))) WHERE \(pointing);", report(false, pointing)])
        return "UPDATE \(tableName) SET \(identifier(column)) = \(transform(read))\(whereFilter(prefix: " WHERE "));"
    }

    // MARK: Aggregates over a to-many relationship

    /// Where the destinations of a to-many relationship are found: a column of their own table
    /// (the inverse's foreign key, or the hidden column of a relationship without inverse), or a
    /// join table.
    private enum Members {
        /// `table` rows whose `column` holds the owner's `Z_PK`; `filter` selects the destination entity's rows.
        case foreignKey(table: String, column: String, filter: (String) -> [String])
        /// `table` rows whose `ownColumn` holds the owner's `Z_PK`; `otherColumn` holds the destination's.
        case joinTable(table: String, ownColumn: String, otherColumn: String, destinationTable: String)

        /// The table whose rows link members to owners, and its column holding the owner's `Z_PK`.
        var table: String {
            switch self {
            case .foreignKey(let table, _, _), .joinTable(let table, _, _, _): table
            }
        }

        var ownerColumn: String {
            switch self {
            case .foreignKey(_, let column, _), .joinTable(_, let column, _, _): column
            }
        }

        /// The conditions that the linking row `row` counts (a join-table row always does).
        func filter(_ row: String) -> [String] {
            if case .foreignKey(_, _, let filter) = self { filter(row) } else { [] }
        }
    }

    private func members(of relationship: Relationship, owner: String) -> Members? {
        guard let destination = schema.layout(ofEntityNamed: relationship.destinationEntityName),
              let destinationTable = schema.tables.first(where: { $0.name == destination.tableName })
        else { return nil }
        if let join = schema.joinTable(forRelationship: relationship.name, ofEntity: owner) {
            let owns = join.relationship == RelationshipReference(entity: owner, relationship: relationship.name)
            return .joinTable(
                table: join.name, ownColumn: owns ? join.sourceColumn : join.destinationColumn,
                otherColumn: owns ? join.destinationColumn : join.sourceColumn, destinationTable: destinationTable.name)
        }
        let hidden = destinationTable.column(for: .inverselessToMany(entity: owner, relationship: relationship.name))
        let inverse = model.inverseLocation(of: relationship).flatMap { found in
            destinationTable.column(for: .foreignKey(
                entity: model.entities[found.entity].name, relationship: model.entities[found.entity].relationships[found.relationship].name))
        }
        guard let column = (hidden ?? inverse)?.name else { return nil }
        let filter = { (row: String) in self.filter(destination, in: destinationTable, row) }
        return .foreignKey(table: destinationTable.name, column: column, filter: filter)
    }

    /// Triggers keeping `value` (an aggregate over the members, aliased `d`) current: counts step by
    /// one, sums are computed again. Returns the refresh statement.
    private mutating func aggregate(_ members: Members, value: String, counting: Bool, summedColumn: String? = nil) -> String {
        let tableName = identifier(table.name)
        let computed: (String) -> String
        switch members {
        case .foreignKey(let memberTable, let memberColumn, let filter):
            computed = { owner in
                "(SELECT \(value) FROM \(identifier(memberTable)) d WHERE "
                    + (["d.\(identifier(memberColumn)) = \(owner)"] + filter("d")).joined(separator: " AND ") + ")"
            }
        case .joinTable(let joinTable, let ownColumn, let otherColumn, let destinationTable):
            computed = { owner in
                counting
                    ? "(SELECT COUNT(*) FROM \(identifier(joinTable)) j WHERE j.\(identifier(ownColumn)) = \(owner))"
                    : "(SELECT \(value) FROM \(identifier(joinTable)) j JOIN \(identifier(destinationTable)) d "
                        + "ON d.Z_PK = j.\(identifier(otherColumn)) WHERE j.\(identifier(ownColumn)) = \(owner))"
            }
        }
        /// Statements bringing the owner `key` up to date.
        func recompute(_ key: String, step: Int) -> [String] {
            let rows = "Z_PK = \(key)" + whereFilter(prefix: " AND ")
            let newValue = counting ? "IFNULL(\(identifier(column)), 0) \(step < 0 ? "-" : "+") 1" : computed("\(tableName).Z_PK")
            return ["UPDATE \(tableName) SET \(identifier(column)) = \(newValue) WHERE \(rows);", report(false, rows)]
        }
        add("SOURCE_INSERT", "INSERT ON \(tableName)", when: rowFilter("NEW"), assign(computed("NEW.Z_PK"), at: "NEW.Z_PK")(true))
        let owner = identifier(members.ownerColumn), memberTable = identifier(members.table)
        add("PARAMETER_INSERT", "INSERT ON \(memberTable)", when: ["NEW.\(owner) IS NOT NULL"] + members.filter("NEW"), recompute("NEW.\(owner)", step: 1))
        let moved = "NEW.\(owner) IS NOT OLD.\(owner)"
        add("UPDATE_INCREMENT", "UPDATE OF \(owner) ON \(memberTable)", when: ["NEW.\(owner) IS NOT NULL", moved] + members.filter("NEW"), recompute("NEW.\(owner)", step: 1))
        add("UPDATE_DECREMENT", "UPDATE OF \(owner) ON \(memberTable)", when: ["OLD.\(owner) IS NOT NULL", moved] + members.filter("OLD"), recompute("OLD.\(owner)", step: -1))
        add("DELETE", "DELETE ON \(memberTable)", when: ["OLD.\(owner) IS NOT NULL"] + members.filter("OLD"), recompute("OLD.\(owner)", step: -1))
        if let summedColumn {
            let summed = identifier(summedColumn)
            switch members {
            case .foreignKey:
                add("PARAMETER_UPDATE", "UPDATE OF \(summed) ON \(memberTable)", when: ["NEW.\(owner) IS NOT NULL"] + members.filter("NEW"),
                    recompute("NEW.\(owner)", step: 0))
            case .joinTable(let joinTable, let ownColumn, let otherColumn, let destinationTable):
                let owners = "Z_PK IN (SELECT \(identifier(ownColumn)) FROM \(identifier(joinTable)) WHERE \(identifier(otherColumn)) = NEW.Z_PK)"
                    + whereFilter(prefix: " AND ")
                add("PARAMETER_UPDATE", "UPDATE OF \(summed) ON \(identifier(destinationTable))", when: [],
                    ["UPDATE \(tableName) SET \(identifier(column)) = \(computed("\(tableName).Z_PK")) WHERE \(owners);", report(false, owners)])
            }
        }
        return "UPDATE \(tableName) SET \(identifier(column)) = \(computed("\(tableName).Z_PK"))\(whereFilter(prefix: " WHERE "));"
    }

    // MARK: Statement pieces

    /// Adds the trigger `Z_DA_<TABLE>_<Entity>_<attribute>_<kind>`.
    private mutating func add(_ kind: String, _ event: String, when conditions: [String], _ body: [String]) {
        let name = identifier("Z_DA_\(table.name)_\(layout.name)_\(attribute)_\(kind)")
        let when = conditions.isEmpty ? "" : " WHEN " + conditions.joined(separator: " AND ")
        triggers.append(.init(
            name: name,
            sql: "CREATE TRIGGER IF NOT EXISTS \(name) AFTER \(event) FOR EACH ROW\(when) BEGIN \(body.joined(separator: " ")) END;"))
    }

    /// The statements setting the column to `value` in the row `key`, then reporting it.
    private func assign(_ value: String, at key: String) -> (_ inserting: Bool) -> [String] {
        let tableName = identifier(table.name), rows = "Z_PK = \(key)"
        return { inserting in
            ["UPDATE \(tableName) SET \(identifier(column)) = \(value) WHERE \(rows);", report(inserting, rows)]
        }
    }

    /// `SELECT <report function>(…) FROM <table> WHERE <rows>;`.
    private func report(_ inserting: Bool, _ rows: String) -> String {
        let function = inserting ? DerivedAttributeFunctions.insertedValue : DerivedAttributeFunctions.updatedValue
        return "SELECT \(function)(\(literal(table.name)), Z_ENT, Z_PK, \(literal(attribute)), \(identifier(column))) "
            + "FROM \(identifier(table.name)) WHERE \(rows);"
    }

    /// The condition that `row` (`NEW`, `OLD`) is of the derived attribute's entity, when its table holds others too.
    private func rowFilter(_ row: String) -> [String] {
        filter(layout, in: table, row)
    }

    /// `prefix` + the entity condition on the table's own rows, or nothing.
    private func whereFilter(prefix: String) -> String {
        let conditions = filter(layout, in: table, nil)
        return conditions.isEmpty ? "" : prefix + conditions.joined(separator: " AND ")
    }

    /// The condition that `row`'s `Z_ENT` is `entity` or one of its subentities; none when every row
    /// of `table` is.
    private func filter(_ entity: EntityLayout?, in table: EntityTable, _ row: String?) -> [String] {
        guard let entity, let root = schema.layout(ofEntityNamed: table.rootEntity), root.subtreeNumbers != entity.subtreeNumbers
        else { return [] }
        let column = (row.map { $0 + "." } ?? "") + "Z_ENT"
        let numbers = entity.subtreeNumbers
        return [numbers.count == 1 ? "\(column) = \(numbers.lowerBound)" : "\(column) BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"]
    }
}
