import DataModel
import DataModelParser
import Foundation
import GRDB
import PropertyLists
import StoreSchema
import Testing
import TestSupport

/// `Z_METADATA.Z_PLIST`: reading what Core Data wrote, writing what Core Data reads.
@Suite struct StoreMetadataTests {
    /// The `Z_PLIST` blob of a copy of a corpus store.
    static func storedPropertyList(_ store: String) throws -> [UInt8] {
        let copy = try CorpusStore(store).copyOfStoreFile()
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let database = try DatabaseQueue(path: copy.path)
        defer { try? database.close() }
        return try database.read { db in try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA")) }.map { $0 }
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: ModelVersionHashTests.allStores())
    func coreDataPropertyList_readsAsItsRecordedDump(store: String) throws {
        let bytes = try Self.storedPropertyList(store)
        let metadata = try StoreMetadata(binaryPropertyList: bytes)
        #expect(metadata.entries == (try ModelVersionHashTests.load(store).metadata))

        // Written back, nothing is lost.
        #expect(try StoreMetadata(binaryPropertyList: metadata.binaryPropertyList) == metadata)
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: ModelVersionHashTests.allStores())
    func damagedPropertyList_throwsOrReads_neverCrashes(store: String) throws {
        let bytes = try Self.storedPropertyList(store)
        var generator = SplitMix64(seed: UInt64(bytes.count))
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? StoreMetadata(binaryPropertyList: Array(bytes.prefix(length)))
        }
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? StoreMetadata(binaryPropertyList: damaged)
        }
        #expect(throws: BinaryPropertyListError.notABinaryPropertyList) { try StoreMetadata(binaryPropertyList: Array("<?xml".utf8)) }
    }

    @Test func newStoreMetadata_hasCoreDataKeys_andFoundationReadsIt() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/Books.xcdatamodeld").path
        let model = try ModelLoader().load(path).model
        let metadata = StoreMetadata(model: model)
        let bytes = metadata.binaryPropertyList
        #expect(bytes.starts(with: "bplist00".utf8))
        #expect(bytes == StoreMetadata(model: model).binaryPropertyList)

        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .binary)
        let dictionary = try #require(read as? [String: Any])
        #expect(dictionary["NSStoreType"] as? String == "SQLite")
        #expect(dictionary["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(dictionary["_NSAutoVacuumLevel"] as? String == "2")
        #expect(dictionary["NSStoreModelVersionIdentifiers"] as? [String] == [""])
        let hashes = try #require(dictionary["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes.mapValues(Array.init) == ModelVersionHashes(model: model).entityHashes)
        #expect(PropertyListValue(foundation: read) == .dictionary(metadata.entries))
    }

    @Test func everyValueKind_roundTrips() throws {
        let long = String(repeating: "x", count: 300)
        let value: [String: PropertyListValue] = [
            "string": .string("SQLite"), "unicode": .string("Bücher 📚"), "long": .string(long),
            "small": .integer(3), "wide": .integer(70_000), "huge": .integer(1 << 40), "negative": .integer(-1),
            "real": .real(2.5), "true": .boolean(true), "false": .boolean(false), "date": .date(-12.25),
            "data": .data(Array(0..<40)), "empty": .array([]),
            "nested": .array([.dictionary(["a": .array([.integer(1), .string("")])])]),
        ]
        #expect(try StoreMetadata(binaryPropertyList: StoreMetadata(entries: value).binaryPropertyList).entries == value)
    }
}
