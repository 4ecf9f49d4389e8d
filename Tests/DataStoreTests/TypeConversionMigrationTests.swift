import DataModel
@testable import DataStore
import Foundation
import GRDB
import StoreMigration
import Testing

/// Attribute types changed between numbers and Booleans, as Core Data's inferred mapping changes
/// them: values convert exactly, or the migration names the objects whose values would not.
@Suite struct TypeConversionMigrationTests {
    typealias S = MigrationSupport

    @Test func theDiffer_infersChangesBetweenNumbersAndBooleans_only() {
        func inference(_ old: AttributeType, _ new: AttributeType, userInfo: UserInfo = UserInfo()) -> String {
            var attribute = Attribute("value", new, isOptional: true)
            attribute.userInfo = userInfo
            let change = ModelDifference(
                from: S.version("V1", [Entity("Thing", attributes: [Attribute("value", old, isOptional: true)])]),
                to: S.version("V2", [Entity("Thing", attributes: [attribute])])
            ).changes.first { $0.kind == .attributeTypeChanged }
            switch change?.inference {
            case .inferred: return "inferred"
            case .inferredIfData(let condition): return "if " + condition
            case .notInferred: return "refused"
            case nil: return "no change"
            }
        }
        #expect(inference(.integer16, .integer64) == "inferred")
        #expect(inference(.integer32, .double) == "inferred")
        #expect(inference(.integer64, .decimal) == "inferred")
        #expect(inference(.float, .double) == "inferred")
        #expect(inference(.boolean, .integer16) == "inferred")
        #expect(inference(.integer64, .integer16) == "if every Thing value is a whole number within Integer 16's range")
        #expect(inference(.integer16, .integer32) == "inferred")
        #expect(inference(.double, .integer64) == "if every Thing value is a whole number within Integer 64's range")
        #expect(inference(.double, .float) == "if every Thing value is within Float's range")
        #expect(inference(.integer32, .boolean) == "if every Thing value is 0 or 1")
        #expect(inference(.string, .integer64) == "refused")
        #expect(inference(.integer64, .string) == "refused")
        #expect(inference(.date, .double) == "refused")
        #expect(inference(.string, .uuid) == "refused")
        #expect(inference(.binary, .transformable) == "refused")
        var allowing = UserInfo()
        allowing.entries = [UserInfo.Entry(key: "NSMigrationAllowTypeTransformation", value: "YES", location: .generated)]
        #expect(inference(.binary, .transformable, userInfo: allowing) == "inferred")
    }

    /// A store of `Thing.value` of type `old` holding `values`, migrated to type `new`.
    static func migrating(_ values: [AttributeValue], from old: AttributeType, to new: AttributeType) throws -> (url: URL, v1: Model, v2: Model) {
        let v1 = S.version("V1", [Entity("Thing", attributes: [Attribute("name", .string, isOptional: true), Attribute("value", old, isOptional: true)])])
        let v2 = S.version("V2", [Entity("Thing", attributes: [Attribute("name", .string, isOptional: true), Attribute("value", new, isOptional: true)])])
        let url = try S.store(v1) { context in
            for (index, value) in values.enumerated() {
                let thing = try context.insertObject(entityName: "Thing")
                try thing.setValue("\(index)", forKey: "name")
                try thing.setAttributeValue(value, forKey: "value")
            }
        }
        return (url, v1, v2)
    }

    static func values(_ url: URL, _ v1: Model, _ v2: Model) throws -> [AttributeValue] {
        let store = try S.open(url, v2, versions: [v1, v2])
        return try S.objects(store, "Thing").map { try $0.attributeValue(forKey: "value") }
    }

    @Test func integersBecomeReals_andTheTableTakesCoreDatasLayout() throws {
        let (url, v1, v2) = try Self.migrating([.integer(40), .null, .integer(-3)], from: .integer64, to: .double)
        #expect(try Self.values(url, v1, v2) == [.double(40), .null, .double(-3)])
        let declared = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_info(ZTHING)").map { "\($0["name"] as String) \($0["type"] as String)" }
        }
        // Reals come after integers, strings after reals (format reference §2.2).
        #expect(declared == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZVALUE FLOAT", "ZNAME VARCHAR"])
    }

    @Test func wholeRealsBecomeIntegers() throws {
        let (url, v1, v2) = try Self.migrating([.double(3), .double(-2), .null, .double(32_767)], from: .double, to: .integer16)
        #expect(try Self.values(url, v1, v2) == [.integer(3), .integer(-2), .null, .integer(32_767)])
    }

    @Test func fractionsAndValuesOutOfRange_stopTheMigration_namingTheirObjects() throws {
        let (url, v1, v2) = try Self.migrating([.double(3), .double(3.5), .double(70_000), .double(-32_768)], from: .double, to: .integer16)
        let bytes = try MigrationSupport.pages(url)
        #expect {
            _ = try S.open(url, v2, versions: [v1, v2])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
            return blocked.map(\.change.subject) == ["Thing.value"] && blocked[0].rows == 2 && blocked[0].firstKeys == [2, 3]
        }
        #expect(try MigrationSupport.pages(url) == bytes)
    }

    @Test func narrowerIntegers_takeValuesInRange_only() throws {
        let fitting = try Self.migrating([.integer(-32_768), .integer(32_767)], from: .integer64, to: .integer16)
        #expect(try Self.values(fitting.url, fitting.v1, fitting.v2) == [.integer(-32_768), .integer(32_767)])
        let (url, v1, v2) = try Self.migrating([.integer(1), .integer(40_000)], from: .integer32, to: .integer16)
        #expect(throws: StoreError.self) { _ = try S.open(url, v2, versions: [v1, v2]) }
    }

    @Test func numbersBecomeBooleans_whenEachIsZeroOrOne() throws {
        let (url, v1, v2) = try Self.migrating([.integer(0), .integer(1), .null], from: .integer64, to: .boolean)
        #expect(try Self.values(url, v1, v2) == [.bool(false), .bool(true), .null])
        let two = try Self.migrating([.integer(1), .integer(2)], from: .integer64, to: .boolean)
        #expect {
            _ = try S.open(two.url, two.v2, versions: [two.v1, two.v2])
        } throws: { error in
            guard case StoreError.migration(.dataPreventsMigration(let blocked)) = error else { return false }
            return blocked[0].firstKeys == [2]
        }
    }

    @Test func booleansBecomeNumbers() throws {
        let (url, v1, v2) = try Self.migrating([.bool(true), .bool(false)], from: .boolean, to: .integer32)
        #expect(try Self.values(url, v1, v2) == [.integer(1), .integer(0)])
    }

    @Test func realsBecomeFloats_withinFloatsRange() throws {
        let (url, v1, v2) = try Self.migrating([.double(0.5), .double(-1e30)], from: .double, to: .float)
        // Stored as they were; a Float property rounds them as it reads them.
        #expect(try Self.values(url, v1, v2) == [.double(0.5), .double(-1e30)])
        let huge = try Self.migrating([.double(1e39)], from: .double, to: .float)
        #expect(throws: StoreError.self) { _ = try S.open(huge.url, huge.v2, versions: [huge.v1, huge.v2]) }
    }
}
