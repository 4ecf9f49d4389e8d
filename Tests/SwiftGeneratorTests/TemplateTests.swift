import DataModel
import Foundation
import SwiftGenerator
import Testing

/// The embedded default templates, user overrides and template errors.
@Suite struct TemplateTests {
    static let templatesFolder = SampleModel.packageRoot.appendingPathComponent("Templates")

    @Test func embeddedDefaults_areTheTemplatesFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.templatesFolder.path).filter { $0.hasSuffix(".mustache") }
        #expect(Set(files.map { String($0.dropLast(".mustache".count)) }) == Set(TemplateSet.names))
        for file in files {
            let text = try String(contentsOf: Self.templatesFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(TemplateSet.defaultText(of: String(file.dropLast(".mustache".count))) == text,
                    "\(file) changed: run Scripts/embed-templates.sh")
        }
    }

    @Test func everyContextField_isVisibleToTemplates() {
        #expect(templateFieldMismatches() == [])
    }

    @Test func blockOverride_changesOnlyThatBlock() throws {
        let override = """
            {{<default-entity}}{{$extraMembers}}

                /// A label for lists.
                {{access}}var label: String { "\\(entityName)" }
            {{/extraMembers}}{{/default-entity}}
            """
        let model = try SampleModel.all[0].load().model
        let plain = try SwiftGenerator().generate(model).files
        let custom = try SwiftGenerator(templates: TemplateSet(overrides: ["entity": override])).generate(model).files
        let book = try #require(custom.first { $0.name == "Book.swift" }).contents
        #expect(book.contains("    /// A label for lists.\n    public var label: String { \"\\(entityName)\" }\n}\n"))
        let withoutLabel = book.replacingOccurrences(of: "\n    /// A label for lists.\n    public var label: String { \"\\(entityName)\" }\n", with: "")
        #expect(withoutLabel == plain.first { $0.name == "Book.swift" }?.contents)
    }

    @Test func brokenTemplate_isReportedWithItsLocation() {
        #expect {
            try TemplateSet(overrides: ["header": "// fine\n{{#imports}}\nimport {{.}}\n"])
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("header.mustache:") && description.contains(": error: ")
        }
        #expect {
            try TemplateSet(overrides: ["entities": "{{x}}"])
        } throws: { error in
            "\(error)" == "entities.mustache: error: no template is named 'entities'; templates are header, entity, model"
        }
    }
}
