import Foundation
import Testing

/// `datamodel-gen generate` and `dump-context` as a user runs them.
@Suite struct GenerateCommandTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("generate-\(UUID().uuidString)").path
    }

    @Test func generate_writesEveryFile_andRewritesOnlyChangedOnes() throws {
        let output = Self.temporaryDirectory()
        let first = try CLITests.run("generate", "Models/Books.xcdatamodeld", "--output-directory", output)
        #expect(first.status == 0)
        #expect(first.standardError.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(files == ["Book.swift", "Books.swift"])

        let book = URL(fileURLWithPath: output).appendingPathComponent("Book.swift")
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: book.path)
        let second = try CLITests.run("generate", "Models/Books.xcdatamodeld", "-o", output)
        #expect(second.status == 0)
        let modified = try FileManager.default.attributesOfItem(atPath: book.path)[.modificationDate] as? Date
        #expect(modified == past, "an unchanged file is not written again")

        try "// edited\n".write(to: book, atomically: true, encoding: .utf8)
        let dryRun = try CLITests.run("generate", "Models/Books.xcdatamodeld", "-o", output, "--dry-run")
        #expect(dryRun.standardOutput == "would write \(book.path)\n")
        #expect(try String(contentsOf: book, encoding: .utf8) == "// edited\n", "a dry run writes nothing")
    }

    @Test func generate_modelWithErrors_writesNothing_andExitsOne() throws {
        let contents = try CLITests.temporaryFile(Array("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Car" representedClassName="Car">
                    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Persn"/>
                </entity>
            </model>
            """.utf8))
        let output = Self.temporaryDirectory()
        let run = try CLITests.run("generate", contents, "-o", output)
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(contents):4:9: error: relationship 'owner' of entity 'Car' has unknown destination entity 'Persn'"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func generate_singleFileAndAccessLevel() throws {
        let output = Self.temporaryDirectory()
        let run = try CLITests.run(
            "generate", "Models/Products.xcdatamodeld", "-o", output, "--single-file", "--access-level", "internal",
            "--additional-import", "ProductKit")
        #expect(run.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["Products.swift"])
        let text = try String(contentsOfFile: output + "/Products.swift", encoding: .utf8)
        #expect(text.contains("\nimport ProductKit\n"))
        #expect(text.contains("\nfinal class FavoriteProducts: Products {"))
        #expect(text.contains("\nenum ProductsModel {"), "the namespace avoids the entity class 'Products'")
        #expect(!text.contains("public "))
    }

    @Test func generate_incrementalLayout_rewritesOnlyTheChangedEntitysFile() throws {
        let output = Self.temporaryDirectory()
        let model = Self.temporaryDirectory() + "/Shop.xcdatamodel"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        func write(price: String) throws {
            try Data("""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Customer" representedClassName="Customer">
                        <attribute name="name" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Product" representedClassName="Product">
                        <attribute name="price" attributeType="Double" defaultValueString="\(price)" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """.utf8).write(to: URL(fileURLWithPath: model + "/contents"))
        }
        try write(price: "0.0")
        #expect(try CLITests.run("generate", model, "-o", output, "--layout", "incremental").status == 0)
        let names = ["Shop+Customer.swift", "Shop+Product.swift", "Shop.swift"]
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == names)
        func modificationDates() throws -> [Date] {
            try names.map { try #require(try FileManager.default.attributesOfItem(atPath: output + "/" + $0)[.modificationDate] as? Date) }
        }
        // Back-date the files, so that a rewrite shows however coarse the file system's clock.
        let past = Date(timeIntervalSinceNow: -3_600)
        for name in names { try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output + "/" + name) }

        try write(price: "2.5")
        #expect(try CLITests.run("generate", model, "-o", output, "--layout", "incremental").status == 0)
        // A second of slack: the file system keeps the dates rounded.
        #expect(try modificationDates().map { $0 > past.addingTimeInterval(1) } == [false, true, false])
        #expect(try String(contentsOfFile: output + "/Shop+Product.swift", encoding: .utf8).contains("defaultValue: \"2.5\""))
    }

    @Test func dumpContext_printsTheTemplateContext_withEveryVersion_andDefaultTemplates() throws {
        let run = try CLITests.run("dump-context", "Models/Books.xcdatamodeld")
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(json["typeName"] as? String == "Books")
        let entities = try #require(json["entities"] as? [[String: Any]])
        let attributes = try #require(entities.first?["attributes"] as? [[String: Any]])
        #expect(attributes.map { $0["swiftType"] as? String } == ["Double", "String"])

        // A bundle of several versions: the context lists the others, as `generate` renders them.
        let everything = try CLITests.run("dump-context", "Models/Everything.xcdatamodeld")
        let versioned = try #require(try JSONSerialization.jsonObject(with: Data(everything.standardOutput.utf8)) as? [String: Any])
        let versions = try #require(versioned["versions"] as? [String: Any])
        #expect(versions["currentName"] as? String == "Everything 2")
        #expect((versions["others"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Everything 1"])

        let template = try CLITests.run("dump-context", "--template", "header")
        #expect(template.standardOutput.hasPrefix("{{% CONTENT_TYPE: TEXT }}\n// Generated by datamodel-gen"))
    }

    @Test func generate_withTemplatesFolder_usesTheOverride() throws {
        let templates = Self.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try "{{% CONTENT_TYPE: TEXT }}\n// House header for {{sourceFileName}}\n{{#imports}}\nimport {{.}}\n{{/imports}}\n"
            .write(toFile: templates + "/header.mustache", atomically: true, encoding: .utf8)
        let output = Self.temporaryDirectory()
        let run = try CLITests.run("generate", "Models/Books.xcdatamodeld", "-o", output, "--templates", templates)
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: output + "/Book.swift", encoding: .utf8).hasPrefix("// House header for Books.xcdatamodeld\nimport DataStore\n"))

        try "{{#broken}}".write(toFile: templates + "/entity.mustache", atomically: true, encoding: .utf8)
        let broken = try CLITests.run("generate", "Models/Books.xcdatamodeld", "-o", output, "--templates", templates)
        #expect(broken.status == 1)
        #expect(broken.standardError.hasPrefix("\(templates)/entity.mustache:"))
    }
}
