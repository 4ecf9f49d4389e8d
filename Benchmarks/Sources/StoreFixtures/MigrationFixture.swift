import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDBSQLite

/// The migration benchmarks' store and model versions: items written by version 1 (the runtime
/// benchmarks' model); version 2 adds an optional attribute, which is an `ALTER TABLE`; version 3
/// removes one, which rebuilds the table.
public enum MigrationFixture {
    public static let rowCount = 1_000_000

    public static let version1 = version("Items 1", StoreFixtures.modelXML)
    public static let version2 = version(
        "Items 2",
        StoreFixtures.modelXML.replacingOccurrences(
            of: #"<attribute name="name""#, with: #"<attribute name="note" optional="YES" attributeType="String"/><attribute name="name""#))
    public static let version3 = version(
        "Items 3",
        StoreFixtures.modelXML.replacingOccurrences(
            of: #"<attribute name="added" optional="YES" attributeType="Date" usesScalarValueType="NO"/>"#, with: ""))

    /// The model of an app whose current version is `current`, with the versions before it.
    public static func model(upTo current: Model) -> ManagedObjectModel {
        let versions = [version1, version2, version3]
        return ManagedObjectModel(model: current, versions: Array(versions[...versions.firstIndex(of: current)!]))
    }

    /// A new store file written by version 1, holding `rowCount` items written through SQLite's C API.
    public static func storeURL() throws -> URL {
        let url = try StoreFixtures.emptyStoreURL()
        let db = RawSQLite.open(url)
        RawSQLite.insertAll(db, count: rowCount)
        sqlite3_close(db)
        return url
    }

    /// A copy of the store at `url` in a directory of its own (the store is closed: no `-wal`).
    public static func copy(of url: URL) throws -> URL {
        let copy = StoreFixtures.newStoreURL()
        try FileManager.default.copyItem(at: url, to: copy)
        return copy
    }

    /// Removes the store at `url` with its folder: a million rows take 88 MB.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    /// The number of rows of `table`, read through SQLite's C API.
    public static func rowCount(of table: String, at url: URL) -> Int {
        let db = RawSQLite.open(url)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : -1
    }

    private static func version(_ name: String, _ xml: String) -> Model {
        var model = try! ModelParser.parse(Array(xml.utf8), path: "Items.xcdatamodeld/\(name).xcdatamodel/contents").model
        model.versionName = name
        return model
    }
}
