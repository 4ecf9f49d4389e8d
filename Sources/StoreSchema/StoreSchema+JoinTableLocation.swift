extension StoreSchema {
    /// The schema with each join table named as an existing store names it: its table, and its
    /// key and order columns. Core Data's releases chose these names by rules that are sampled,
    /// not known (format reference §2.5): which side names a join table, and which of two columns
    /// of one name takes the collision suffix (`Z_1ITEMS` and `Z_1ITEMS1`). So when the expected
    /// table lacks the expected columns, the store's `tables` are searched for the one that has
    /// them; and when none has, for the one whose key columns are the expected ones with another
    /// collision suffix — the entity number and relationship each column encodes, which is what
    /// identifies it. Two candidates of equal standing are never chosen between: that throws
    /// ``JoinTableLocationError``. The join table's indexes follow it. `table(_:has:)` answers
    /// from the store's catalog.
    public func locatingJoinTables(
        among tables: [String], where table: (_ table: String, _ has: String) throws -> Bool
    ) throws -> StoreSchema {
        var schema = self
        for index in joinTables.indices {
            let join = joinTables[index]
            func holdsJoin(_ name: String) throws -> Bool {
                try table(name, join.sourceColumn) && table(name, join.destinationColumn)
            }
            if tables.contains(join.name), try holdsJoin(join.name) { continue }
            if let actual = try tables.first(where: holdsJoin) {
                schema.relocate(join: index, to: actual, source: join.sourceColumn, destination: join.destinationColumn)
                continue
            }
            // The expected table first: a match there outranks one elsewhere.
            let candidates = (tables.contains(join.name) ? [join.name] : []) + tables.filter { $0 != join.name }
            var found: [(table: String, source: String, destination: String)] = []
            for name in candidates {
                // Columns of equal standing in the expected table are an error; elsewhere, no match.
                let columns: (source: String, destination: String)?
                do {
                    columns = try Self.keyColumns(of: join, in: name, table)
                } catch let error as JoinTableLocationError {
                    if name == join.name { throw error }
                    continue
                }
                guard let (source, destination) = columns else { continue }
                found.append((name, source, destination))
                if name == join.name { break }
            }
            guard let match = found.first(where: { $0.table == join.name }) ?? found.first else { continue }
            guard found.count == 1 || match.table == join.name else {
                throw JoinTableLocationError.ambiguous(join: join.name, candidates: found.map { "\($0.table) (\($0.source), \($0.destination))" })
            }
            schema.relocate(join: index, to: match.table, source: match.source, destination: match.destination)
        }
        return schema
    }

    /// The key columns of `join` in the table `name`, each the expected one with whatever collision
    /// suffix the store gave it; `nil` when the table lacks one. A column exactly as expected
    /// outranks one with another suffix; two with other suffixes are of equal standing.
    private static func keyColumns(
        of join: JoinTable, in name: String, _ table: (_ table: String, _ has: String) throws -> Bool
    ) throws -> (source: String, destination: String)? {
        func column(_ expected: String) throws -> String? {
            let stem = collisionStem(of: expected)
            let present = try ([stem] + (1...20).map { stem + String($0) }).filter { try table(name, $0) }
            if present.contains(expected) { return expected }
            guard present.count <= 1 else {
                throw JoinTableLocationError.ambiguous(join: join.name, candidates: present.map { "\(name).\($0)" })
            }
            return present.first
        }
        guard let source = try column(join.sourceColumn), let destination = try column(join.destinationColumn), source != destination
        else { return nil }
        return (source, destination)
    }

    /// A column's name without its collision suffix: `Z_1ITEMS1` → `Z_1ITEMS`. The digits of the
    /// entity number, after `Z_`, stay.
    package static func collisionStem(of column: String) -> String {
        var stem = Substring(column)
        while stem.last?.isNumber == true { stem = stem.dropLast() }
        return stem.dropFirst(2).contains(where: \.isLetter) ? String(stem) : column
    }

    /// Renames join table `index` to `table`, with the key columns `source` and `destination` (and
    /// their order columns), in the join and in its indexes.
    private mutating func relocate(join index: Int, to table: String, source: String, destination: String) {
        let old = joinTables[index]
        var join = old
        join.name = table
        join.sourceColumn = source
        join.destinationColumn = destination
        join.sourceOrderColumn = old.sourceOrderColumn.map { _ in "Z_FOK_" + source.dropFirst(2) }
        join.destinationOrderColumn = old.destinationOrderColumn.map { _ in "Z_FOK_" + destination.dropFirst(2) }
        joinTables[index] = join
        let renamed = Dictionary(uniqueKeysWithValues: zip(old.columnNames, join.columnNames).filter { $0 != $1 })
        for position in indexes.indices where indexes[position].table == old.name {
            indexes[position].table = table
            for key in indexes[position].keys.indices {
                indexes[position].keys[key].column = renamed[indexes[position].keys[key].column] ?? indexes[position].keys[key].column
            }
        }
    }
}

/// A store whose layout fits the model in two ways: the runtime does not choose between them.
public enum JoinTableLocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The join table `join` of the model could be any of `candidates` in the store.
    case ambiguous(join: String, candidates: [String])

    public var description: String {
        switch self {
        case .ambiguous(let join, let candidates):
            "the store could hold the join table \(join) as \(candidates.joined(separator: " or ")); nothing tells them apart"
        }
    }
}
