import DataModelParser
import DataStore
import Foundation
import Testing

/// A constant compared with a transformable attribute runs through the attribute's transformer
/// first, as Core Data runs it, and the bytes are compared.
@Suite struct TransformablePredicateTests {
    /// `#` and the name: a color's bytes in the store.
    struct ColorTransformer: ValueTransforming {
        func encode(_ name: String) throws -> Data { Data(("#" + name).utf8) }
        func decode(_ data: Data) throws -> String { String(decoding: data.dropFirst(), as: UTF8.self) }
    }

    static let model: ManagedObjectModel = {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Pen" representedClassName="Pen">
                    <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="PredicateColorTransformer"/>
                    <attribute name="label" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                    <attribute name="ink" optional="YES" attributeType="Transformable" valueTransformerName="UnregisteredInkTransformer"/>
                </entity>
            </model>
            """
        ValueTransformers.setValueTransformer(ColorTransformer(), forName: "PredicateColorTransformer")
        return ManagedObjectModel(model: try! ModelParser.parse(Array(xml.utf8), path: "Pens.xcdatamodel/contents").model)
    }()

    static func names(_ context: ObjectContext, _ format: String, _ arguments: any PredicateArgument...) throws -> [String] {
        let color = TransformedKey<ManagedObject, ColorTransformer>("color", slot: 0, transformer: ColorTransformer())
        return try context.fetch(FetchRequest<ManagedObject>(entityName: "Pen", predicate: try ObjectPredicate(format: format, arguments: arguments)))
            .compactMap { $0[color] }.sorted()
    }

    @Test(arguments: TestedEngine.available) func constants_meetTheStoredBytes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(Self.model, on: engine) { store throws in
            let setup = store.newContext()
            let color = TransformedKey<ManagedObject, ColorTransformer>("color", slot: 0, transformer: ColorTransformer())
            let label = TransformableKey<ManagedObject, [String]>("label", slot: 2)
            for (name, text) in [("teal", ["fine"]), ("red", ["bold"]), ("black", nil)] as [(String, [String]?)] {
                let pen = try setup.insertObject(entityName: "Pen")
                pen[color] = name
                pen[label] = text
            }
            try setup.save()
            let context = store.newContext()
            #expect(try Self.names(context, "color == 'teal'") == ["teal"])
            #expect(try Self.names(context, "color != %@", "teal") == ["black", "red"])
            #expect(try Self.names(context, "color IN {'red', 'black', 'blue'}") == ["black", "red"])
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            #expect(try Self.names(context, "label == %@", try encoder.encode(["bold"])) == ["red"], "a Codable value, by its encoded data")
            #expect(try Self.names(context, "label == nil") == ["black"])
            #expect(try Self.names(context, "color == %@", Data("#red".utf8)) == ["red"], "bytes are compared as they are")
        }
    }

    @Test func anUnregisteredTransformer_orAValueItCannotTake_isAnError() throws {
        let context = try TestStores.newStore(Self.model).newContext()
        #expect(performing: { try Self.names(context, "ink == 'blue'") }, throws: { error in
            "\(error)".contains("'UnregisteredInkTransformer' is not registered")
        })
        #expect(throws: ContextError.self) { try Self.names(context, "color == 3") }
        #expect(performing: { try Self.names(context, "label == 'bold'") }, throws: { error in
            "\(error)".contains("only their encoded data can equal")
        })
    }
}
