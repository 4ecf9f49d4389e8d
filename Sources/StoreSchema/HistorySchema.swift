import DataModel

/// The tables of persistent history tracking, as Core Data writes them: one row per saved
/// transaction (`ATRANSACTION`), one per changed object (`ACHANGE`), and the transactions' author,
/// context, bundle and process names stored once each (`ATRANSACTIONSTRING`). They are numbered
/// past any model's entities in `Z_PRIMARYKEY` (16001–16003), which also allocates their keys.
public enum HistorySchema {
    public static let changeTable = "ACHANGE"
    public static let transactionTable = "ATRANSACTION"
    public static let stringTable = "ATRANSACTIONSTRING"

    /// The `Z_PRIMARYKEY` entity numbers of the three tables' rows.
    public static let changeEntity = 16001
    public static let transactionEntity = 16002
    public static let stringEntity = 16003

    /// `ACHANGE.ZCHANGETYPE`.
    public enum ChangeType: Int, Sendable, Codable {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// The tables and indexes, in Core Data's text and order, with `tombstoneColumns` columns for
    /// deleted objects' preserved values.
    public static func createStatements(tombstoneColumns: Int) -> [String] {
        let tombstones = (0..<tombstoneColumns).map { ", \(tombstoneColumn($0)) BLOB" }.joined()
        return ["CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstones) );"]
            + otherStatements
    }

    private static let otherStatements = [
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);",
    ]

    /// The `ACHANGE` column of a deleted object's `index`th preserved value (its tombstone).
    public static func tombstoneColumn(_ index: Int) -> String {
        "ZTOMBSTONE\(index)"
    }

    /// The first `count` tombstone columns, each after a comma (`, ZTOMBSTONE0, ZTOMBSTONE1`): the
    /// tail of `ACHANGE`'s column list in a `SELECT` or `INSERT`.
    public static func tombstoneColumnList(_ count: Int) -> String {
        (0..<count).map { ", " + tombstoneColumn($0) }.joined()
    }

    /// Whether a delete keeps `attribute`'s value in its change (`preserveAfterDeletion`): only
    /// attributes with a column of their own have one to keep.
    public static func isPreserved(_ attribute: Attribute) -> Bool {
        attribute.preservesValueInHistoryOnDeletion && attribute.isPersistent && attribute.type != .composite
    }

    /// The tombstone columns `model` needs: one per preserved attribute of the entity that
    /// preserves most, as `ACHANGE` holds the changes of every entity.
    public static func tombstoneColumnCount(of model: Model) -> Int {
        model.entities.map { entity in model.allAttributes(of: entity).count(where: isPreserved) }.max() ?? 0
    }

    /// The tables' rows of `Z_PRIMARYKEY` for a store that starts tracking.
    public static let primaryKeyRows: [(number: Int, name: String, superNumber: Int)] = [
        (changeEntity, "CHANGE", 0), (transactionEntity, "TRANSACTION", 0), (stringEntity, "TRANSACTIONSTRING", 0),
    ]
}
