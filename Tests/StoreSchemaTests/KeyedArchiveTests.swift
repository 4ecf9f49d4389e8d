import Foundation
import PropertyLists
import Testing

/// Keyed archives as Foundation's own `NSKeyedArchiver` writes them, read back; damaged ones give
/// errors, never a crash.
@Suite struct KeyedArchiveTests {
    static func archived(_ object: Any) throws -> [UInt8] {
        Array(try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false))
    }

    @Test func foundationsArchives_readBack() throws {
        let dictionary: NSDictionary = ["ModelVersion": "1.5.2", "count": 3, "ratio": 0.5, "on": true]
        let root = try KeyedArchive(binaryPropertyList: Self.archived(dictionary)).topValue()
        let object = try #require(root.object)
        #expect(object.classNames.contains("NSDictionary"))
        var entries: [String: ArchivedValue] = [:]
        for (key, value) in try object.entries() { entries[try #require(key.string)] = value }
        #expect(entries["ModelVersion"]?.string == "1.5.2")
        #expect(entries["count"] == .integer(3))
        #expect(entries["ratio"] == .real(0.5))
        #expect(entries["on"] == .boolean(true))

        let array: NSArray = ["a", NSNull(), ["nested"] as NSArray]
        let elements = try #require(try KeyedArchive(binaryPropertyList: Self.archived(array)).topValue().object).elements()
        #expect(elements.count == 3)
        #expect(elements[0].string == "a")
        #expect(try elements[2].object?.elements().map(\.string) == ["nested"])
    }

    @Test func damagedArchives_areErrors() throws {
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(binaryPropertyList: Array("bplist00".utf8)) }
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(.dictionary(["$objects": .array([])])) }
        let dangling = try KeyedArchive(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$objects": .array([.string("$null")]),
            "$top": .dictionary(["root": .dictionary(["CF$UID": .integer(7)])]),
        ]))
        #expect(throws: KeyedArchiveError.malformed("reference 7 is past the 1 archived objects")) { try dangling.topValue() }
        // An object that refers to itself is read one step at a time.
        let looping = try KeyedArchive(.dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$objects": .array([
                .string("$null"),
                .dictionary(["$class": .dictionary(["CF$UID": .integer(2)]), "next": .dictionary(["CF$UID": .integer(1)])]),
                .dictionary(["$classname": .string("Node"), "$classes": .array([.string("Node"), .string("NSObject")])]),
            ]),
            "$top": .dictionary(["root": .dictionary(["CF$UID": .integer(1)])]),
        ]))
        let node = try #require(try looping.topValue().object)
        #expect(node.classNames == ["Node", "NSObject"])
        #expect(try node.value(forKey: "next").object?.value(forKey: "next").object?.className == "Node")
    }
}
