import DataModel
import Foundation
import SwiftGenerator
import Testing

/// A default of bytes (only a model made in code has one: a Transformable's default object,
/// SwiftData's `[Data] = []`) is compiled into the model file as a `[UInt8]` literal, sixteen bytes
/// a line, which the literal initialiser turns back into the same bytes.
@Suite struct DefaultDataLiteralTests {
    @Test func aDefaultOfBytes_isCompiledAsAByteLiteral() throws {
        var cover = Attribute("cover", .transformable, isOptional: true)
        cover.defaultData = Data(0..<20)
        let model = Model("Shelf.xcdatamodel", entities: [Entity("Book", attributes: [cover])])
        let result = try SwiftGenerator().generate(model)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        let file = try #require(result.files.first { $0.name == "Model.swift" || $0.contents.contains("defaultData:") })
        let literal = [
            "defaultData: [",
            "    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,",
            "    0x10, 0x11, 0x12, 0x13,",
            "]",
        ]
        let indent = String(repeating: " ", count: 20)
        #expect(file.contents.contains(literal.map { indent + $0 }.joined(separator: "\n")), "\(file.contents)")
        #expect(Attribute("cover", .transformable, defaultData: Array(0..<20)).defaultData == cover.defaultData)
    }
}
