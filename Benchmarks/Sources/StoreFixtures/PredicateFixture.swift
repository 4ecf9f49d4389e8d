import DataStore
import Foundation
import GRDB
import GRDBSQLite

/// The predicate benchmark: `name CONTAINS[cd] %@ AND price < %d` over the 100,000 items, matching
/// all of them, so that every row is both judged and materialised. The floor and the peer run the
/// same SQL through the same text matching (`ComparisonOperator.matches`) as `CONTAINSCD`.
public enum PredicateFixture {
    public static let format = "name CONTAINS[cd] %@ AND price < %d"
    public static let pattern = "ÍTEM"
    public static let maximumPrice = 25_000
    public static let options: StringOptions = [.caseInsensitive, .diacriticInsensitive]
    public static let foldedPattern = options.fold(pattern)

    public static func request() throws -> DataStore.FetchRequest<Item> {
        DataStore.FetchRequest<Item>(predicate: try ObjectPredicate(format: format, pattern, maximumPrice))
    }

    public static let selection = "SELECT Z_PK, Z_OPT, ZADDED, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY FROM ZITEM WHERE CONTAINSCD(ZNAME, ?) AND ZPRICE < ? ORDER BY Z_PK"

    /// `CONTAINSCD(value, foldedPattern)` on a GRDB connection.
    public static let grdbFunction = DatabaseFunction("CONTAINSCD", argumentCount: 2, pure: true) { values in
        guard let value = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return 0 }
        return ComparisonOperator.contains.matches(value, pattern, options: options, patternIsFolded: true) ? 1 : 0
    }

    /// A GRDB pool on `url` whose connections have `CONTAINSCD`.
    public static func grdbPool(_ url: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: grdbFunction) }
        return try DatabasePool(path: url.path, configuration: configuration)
    }

    /// The matching rows as GRDB records.
    public static func grdbFetch(_ pool: DatabasePool) throws -> [ItemRecord] {
        try pool.read { db in try ItemRecord.fetchAll(db, sql: selection, arguments: [foldedPattern, maximumPrice]) }
    }

    /// `CONTAINSCD(value, foldedPattern)` on a raw connection, through SQLite's C API.
    public static func registerRawFunction(_ db: OpaquePointer) {
        sqlite3_create_function_v2(db, "CONTAINSCD", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let value = sqlite3_value_text(arguments[0]), let pattern = sqlite3_value_text(arguments[1]) else {
                return sqlite3_result_int(context, 0)
            }
            let matches = ComparisonOperator.contains.matches(
                String(cString: value), String(cString: pattern), options: PredicateFixture.options, patternIsFolded: true)
            sqlite3_result_int(context, matches ? 1 : 0)
        }, nil, nil, nil)
    }

    /// The matching rows, decoded into Swift values, through SQLite's C API.
    public static func rawFetch(_ db: OpaquePointer) -> [RawSQLite.ItemRow] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, selection, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, foldedPattern, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        sqlite3_bind_int64(statement, 2, Int64(maximumPrice))
        return RawSQLite.rows(statement)
    }
}
