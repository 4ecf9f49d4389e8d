import DataModel
import DataModelParser
import Foundation
import GRDB
import PropertyLists
@testable import StoreSchema
import Testing

/// A Transformable attribute's default object, which only a model made in code has: CoreDataPlus's
/// `Book.frontCover` defaults to a `Cover` of the app's own class, stored through the app's
/// `CoverTransformer`. The model cache keeps the object inside the model's archive; the model
/// read from it holds the object archived alone, the bytes Core Data stored for books that kept it.
@Suite struct DefaultObjectTests {
    static let store = ArchivedFetchTests.thirdParty.appendingPathComponent("CoreDataPlus/SampleModel2_V2.sqlite")

    /// Reads the store through a copy, never the fixture itself.
    static func read<T>(_ body: (Database) throws -> T) throws -> T {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("default-object-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: store, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        return try DatabaseQueue(path: copy.path).read(body)
    }

    static func modelCache() throws -> Data {
        try read { db in try #require(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")) }
    }

    static func frontCover() throws -> (model: Model, attribute: Attribute) {
        let model = try ModelCache.decode(Array(modelCache()), path: "SampleModel2_V2.sqlite")
        let attribute = try #require(model.entity(named: "Book")?.attributes.first { $0.name == "frontCover" })
        return (model, attribute)
    }

    /// An archived value as text, its fields in name order: equal for equal object graphs,
    /// whatever order an archiver wrote them in.
    static func outline(_ value: ArchivedValue) throws -> String {
        guard case .object(let object) = value else { return "\(value)" }
        let fields = try object.keys.map { key in "\(key): \(try outline(object.value(forKey: key)))" }
        return "\(object.classNames.joined(separator: ":")) {\(fields.joined(separator: ", "))}"
    }

    @Test func theDefaultObject_isTheBytesCoreDataStoredForIt() throws {
        let (model, frontCover) = try Self.frontCover()
        #expect(frontCover.type == .transformable && frontCover.valueTransformerName == "CoverTransformer")
        let bytes = try #require(frontCover.defaultData)
        let cover = try KeyedArchive(binaryPropertyList: Array(bytes)).topValue()
        #expect(try Self.outline(cover) == #"CoreDataPlus_Tests.Cover:NSObject {text: string("default cover")}"#)

        // Books the app made without a cover of their own hold the default, archived alone.
        let stored = try Self.read { db in try Data.fetchAll(db, sql: "SELECT ZFRONTCOVER FROM ZBOOK ORDER BY Z_PK") }
        let outlines = try stored.map { try Self.outline(KeyedArchive(binaryPropertyList: Array($0)).topValue()) }
        let coverOutline = try Self.outline(cover)
        #expect(outlines.filter { $0 == coverOutline }.count == 2)
        #expect(outlines.contains { $0.contains("Cover Graphic Novel") })

        // With the default read, the model the cache holds is the store's whole model.
        let metadata = try Self.read { db in try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA")) }
        let hashes = try #require(try StoreMetadata(binaryPropertyList: Array(metadata)).versionHashes)
        #expect(ModelVersionHashes(model: model).entitiesDiffering(from: hashes) == [])
        #expect(ModelValidator().validate(model).filter { $0.severity == .error }.isEmpty)
    }

    /// Xcode's XML has no field for such a default: writing the model is refused, never done without it.
    @Test func aModelWithADefaultObject_isNotWrittenAsXML() throws {
        #expect(throws: ModelWriter.Unsupported.self) { try ModelWriter.contents(of: Self.frontCover().model) }
    }

    /// A default of any kind archives alone: a root that is a plain value, one object referring to
    /// another twice, and objects that refer to each other.
    @Test func valuesArchiveAlone_withTheirReferences() throws {
        var writer = KeyedArchiveWriter()
        let name = writer.string("shared")
        let (loopReference, loopIndex) = writer.reserve()
        let inner = writer.object("Inner", ["name": name, "back": loopReference])
        let list = writer.array([name, inner])
        writer.fill(loopIndex, "Outer", ["first": inner, "second": inner, "count": .integer(3), "list": list])
        let outer = try KeyedArchive(binaryPropertyList: writer.bytes(root: loopReference)).topValue()
        let inside = try #require(try outer.object?.value(forKey: "first"))

        let alone = try KeyedArchive(binaryPropertyList: inside.archivedAlone()).topValue()
        let copy = try #require(alone.object)
        #expect(copy.classNames == ["Inner", "NSObject"])
        #expect(try copy.value(forKey: "name") == .string("shared"))
        let back = try #require(try copy.value(forKey: "back").object)
        #expect(back.classNames == ["Outer", "NSObject"])
        #expect(try back.integer(forKey: "count") == 3)
        // The loop closes on the copy itself, and the two references stay one object.
        #expect(try back.value(forKey: "first") == alone)
        #expect(try back.value(forKey: "second") == alone)
        #expect(try back.value(forKey: "list").object?.elements() == [.string("shared"), alone])

        for plain: ArchivedValue in [.string("text"), .integer(7), .real(2.5), .boolean(true), .data([1, 2]), .date(10), .null] {
            #expect(try KeyedArchive(binaryPropertyList: plain.archivedAlone()).topValue() == plain)
        }
    }
}
