import Foundation
import Testing
import TestSupport

/// Runs the built `datamodel-gen` as a user would and checks its output streams and exit codes.
@Suite struct CLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs the tool from the package root, so relative model paths read like the README's.
    static func run(_ arguments: String...) throws -> Run {
        try run(arguments)
    }

    /// Runs `datamodel-gen` as the trait `PostgreSQL` builds it: with PostgreSQL stores.
    static func runWithPostgreSQL(_ arguments: String...) throws -> Run {
        try run(arguments, tool: "datamodel-gen-with-postgresql")
    }

    static func runWithPostgreSQL(_ arguments: [String]) throws -> Run {
        try run(arguments, tool: "datamodel-gen-with-postgresql")
    }

    static func run(_ arguments: [String], tool: String = "datamodel-gen") throws -> Run {
        let process = Process()
        process.executableURL = BuiltProducts.directory.appendingPathComponent(tool)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)/contents")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func lint_cleanModel_exitsZeroAndPrintsNothing() throws {
        let run = try Self.run("lint", "Models/FailedBanks.xcdatamodeld")
        #expect(run.status == 0)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.isEmpty)
    }

    @Test func lint_warningsOnly_exitsZero_unlessWarningsAreErrors() throws {
        let plain = try Self.run("lint", "Models/Everything.xcdatamodeld")
        #expect(plain.status == 0)
        #expect(plain.standardError.contains(
            "Models/Everything.xcdatamodeld/Everything 2.xcdatamodel/contents:45:9: warning: relationship 'recommendedBy' of entity 'Book' has no inverse"))
        #expect(plain.standardError.hasSuffix("0 errors, 1 warning\n"))

        let strict = try Self.run("lint", "Models/Everything.xcdatamodeld", "--warnings-as-errors")
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("contents:45:9: error: relationship 'recommendedBy'"))
    }

    @Test func lint_modelWithErrors_exitsOneWithLocatedDiagnostics() throws {
        let path = "Tests/DataModelParserTests/Fixtures/Invalid/UnknownReferences.xcdatamodel"
        let run = try Self.run("lint", path)
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains(
            "\(path)/contents:5:9: error: relationship 'owner' of entity 'Car' has unknown destination entity 'Persn'\n"))
        #expect(run.standardError.hasSuffix("7 errors, 1 warning\n"))
    }

    /// A predicate `generate` could not read fails `lint` first, located at the element that holds
    /// it; `&&` written as `&amp;&amp;` reads.
    @Test func lint_reportsUnreadablePredicates_ofFetchRequestsAndFetchedProperties() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Show" representedClassName="Show">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <fetchedProperty name="similar" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Show" predicateString="title BEGINSWITH"/>
                    </fetchedProperty>
                </entity>
                <fetchRequest name="Both" entity="Show" predicateString="title != nil &amp;&amp; title != 'x'"/>
                <fetchRequest name="Broken" entity="Show" predicateString="title == (1"/>
            </model>
            """
        let path = try Self.temporaryFile(Array(xml.utf8))
        let run = try Self.run("lint", path)
        #expect(run.status == 1)
        let errors = run.standardError.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(run.standardError)")
        #expect(errors.first?.hasPrefix("\(path):5:9: error: fetched property 'similar': ") == true, "\(run.standardError)")
        #expect(errors.last?.hasPrefix("\(path):10:5: error: fetch request 'Broken': ") == true, "\(run.standardError)")
        #expect(!run.standardError.contains("'Both'"))
    }

    @Test func lint_chosenVersion_isRead() throws {
        let run = try Self.run("dump", "Models/Everything.xcdatamodeld", "--model-version", "Everything 1", "--format", "summary")
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("3 entities (version Everything 1)\n"))
    }

    @Test(arguments: [
        ("truncated", "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n    <attribute name="),
        ("wrong root", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"),
        ("binary garbage", "\u{1}\u{2}\u{3}\u{FF}\u{0}garbage"),
        ("empty", ""),
        ("NUL characters", "\u{0}\u{0}\u{0}<\u{0}\u{0}\u{0}m\u{0}\u{0}\u{0}\u{0}\u{0}"),
    ])
    func badInput_exitsOneWithOneLocatedError(kind: String, text: String) throws {
        try expectOneLocatedError(kind: kind, path: try Self.temporaryFile(Array(text.utf8)))
    }

    /// libxml2 reports conversion failures outside the parser context; they must still arrive as one diagnostic.
    @Test func undecodableBytes_exitOneWithOneLocatedError() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>\n<model>\u{1B}$B".utf8) + [0xFF, 0xFF] + Array("</model>".utf8)
        try expectOneLocatedError(kind: "undecodable", path: try Self.temporaryFile(bytes))
    }

    func expectOneLocatedError(kind: String, path: String) throws {
        for command in ["lint", "dump"] {
            let run = try Self.run(command, path)
            #expect(run.status == 1, "\(kind) \(command)")
            #expect(run.standardOutput.isEmpty, "\(kind) \(command)")
            #expect(run.standardError.hasPrefix(path), "\(kind): \(run.standardError)")
            #expect(run.standardError.contains(": error: "), "\(kind): \(run.standardError)")
            #expect(run.standardError.split(separator: "\n").count == 1, "\(kind): \(run.standardError)")
        }
    }

    @Test func missingFile_andFolderWithoutContents_exitOne() throws {
        let missing = try Self.run("lint", "Models/Nope.xcdatamodeld")
        #expect(missing.status == 1)
        #expect(missing.standardError == "Models/Nope.xcdatamodeld: error: no such file or directory\n")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let hollow = try Self.run("lint", folder.path)
        #expect(hollow.status == 1)
        #expect(hollow.standardError.contains("error: the folder has no 'contents' file"))
    }

    @Test func dumpJSON_hasTheDocumentedShape() throws {
        let run = try Self.run("dump", "Models/FailedBanks.xcdatamodeld", "--format", "json")
        #expect(run.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let entities = try #require(json?["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["FailedBankDetails", "FailedBankInfo"])
        let info = entities[1]
        #expect((info["attributes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["city", "name", "state"])
        #expect((info["relationships"] as? [[String: Any]])?.map { $0["name"] as? String } == ["details"])
    }

    @Test func dumpJSON_isByteIdenticalAcrossRuns() throws {
        let first = try Self.run("dump", "Models/Everything.xcdatamodeld")
        let second = try Self.run("dump", "Models/Everything.xcdatamodeld")
        #expect(first.status == 0)
        #expect(first.standardOutput == second.standardOutput)
    }

    @Test func dump_modelWithErrors_printsNothingOnStandardOutput() throws {
        let run = try Self.run("dump", "Tests/DataModelParserTests/Fixtures/Invalid/InheritanceCycle.xcdatamodel")
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("inherits from itself"))
    }

    @Test func help_teachesWithExamples() throws {
        let root = try Self.run("--help")
        #expect(root.status == 0)
        #expect(root.standardOutput.contains("datamodel-gen lint Models/FailedBanks.xcdatamodeld"))
        #expect(root.standardOutput.contains("SUBCOMMANDS"))
        let lint = try Self.run("lint", "--help")
        #expect(lint.standardOutput.contains("--warnings-as-errors"))
        #expect(lint.standardOutput.contains("--model-version"))
    }

    @Test func sql_printsCoreDataLayout_andViewsOnRequest() throws {
        let plain = try Self.run("sql", "Models/Products.xcdatamodeld")
        #expect(plain.status == 0)
        #expect(plain.standardOutput.hasPrefix(
            "CREATE TABLE ZPRODUCTS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRICE FLOAT, ZFAVORITEDAT TIMESTAMP, ZNAME VARCHAR );\n"))
        #expect(plain.standardOutput.contains("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (2, 'FavoriteProducts', 1, 0);"))
        #expect(!plain.standardOutput.contains("CREATE VIEW"))
        let withViews = try Self.run("sql", "Models/Products.xcdatamodeld", "--views")
        #expect(withViews.standardOutput.contains("CREATE VIEW \"FavoriteProducts\" AS SELECT Z_PK AS id"))
        #expect(withViews.standardOutput.contains("WHERE Z_ENT BETWEEN 2 AND 2;"))
    }

    @Test func sql_output_writesTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).sql")
        let run = try Self.run("sql", "Models/Books.xcdatamodeld", "--output", file.path)
        #expect(run.status == 0)
        #expect(run.standardOutput.isEmpty)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == (try Self.run("sql", "Models/Books.xcdatamodeld")).standardOutput)
    }

    @Test func sql_modelWithErrors_printsNothing() throws {
        let run = try Self.run("sql", "Tests/DataModelParserTests/Fixtures/Invalid/DuplicateNames.xcdatamodel")
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("duplicate entity 'Animal'"))
    }

    @Test func diagram_printsMermaidByDefault_andDOTOnRequest_orWritesTheFile() throws {
        let mermaid = try Self.run("diagram", "Models/Books.xcdatamodeld")
        #expect(mermaid.status == 0)
        #expect(mermaid.standardOutput.hasPrefix("classDiagram\n    class Book {\n"))
        let dot = try Self.run("diagram", "Models/Everything.xcdatamodeld", "--format", "dot")
        #expect(dot.standardOutput.hasPrefix("digraph \"Everything 2\" {"))
        #expect(dot.standardOutput.contains("\"Book\" -> \"Item\" [arrowhead=empty];"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("diagram-\(UUID().uuidString).mmd")
        let written = try Self.run("diagram", "Models/Books.xcdatamodeld", "--output", file.path)
        #expect(written.status == 0 && written.standardOutput.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == mermaid.standardOutput)
        let unknown = try Self.run("diagram", "Models/Books.xcdatamodeld", "--format", "svg")
        #expect(unknown.status != 0 && unknown.standardError.contains("mermaid"))
    }

    @Test func diagram_modelWithErrors_printsNothing() throws {
        let run = try Self.run("diagram", "Tests/DataModelParserTests/Fixtures/Invalid/DuplicateNames.xcdatamodel")
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("duplicate entity 'Animal'"))
    }

    /// The tool built without the trait `PostgreSQL` reads files only: a server's URL is refused
    /// with the command that builds it with PostgreSQL, and `copy-store` is not among its commands;
    /// built with the trait, it has both.
    @Test func withoutTheTraitPostgreSQL_serverStoresAreRefused_andCopyStoreIsAbsent() throws {
        let inspect = try Self.run("inspect", "postgresql://app@127.0.0.1/app", "--model", "Models/Books.xcdatamodeld")
        #expect(inspect.status == 1)
        #expect(inspect.standardError.contains("swift build --traits PostgreSQL"), "\(inspect.standardError)")
        let migrate = try Self.run("migrate", "postgres://app@127.0.0.1/app", "--model", "Models/Books.xcdatamodeld")
        #expect(migrate.status == 1 && migrate.standardError.contains("--traits PostgreSQL"))
        let help = try Self.run("--help")
        #expect(!help.standardOutput.contains("copy-store  "), "\(help.standardOutput)")
        let helpWithPostgreSQL = try Self.runWithPostgreSQL("--help")
        #expect(helpWithPostgreSQL.standardOutput.contains("copy-store"))
        let badURL = try Self.runWithPostgreSQL("inspect", "postgresql://app@127.0.0.1/app?sslmode=sometimes", "--model", "Models/Books.xcdatamodeld")
        #expect(badURL.status == 1 && badURL.standardError.contains("sslmode"), "\(badURL.standardError)")
    }

    @Test func sql_dialectPostgreSQL_printsPostgreSQLTypesAndQuotedNames() throws {
        let run = try Self.run("sql", "Models/Products.xcdatamodeld", "--dialect", "postgresql")
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix(
            #"CREATE TABLE "ZPRODUCTS" ( "Z_PK" bigint PRIMARY KEY, "Z_ENT" integer, "Z_OPT" bigint, "ZPRICE" double precision, "ZFAVORITEDAT" double precision, "ZNAME" text COLLATE "C" );"# + "\n"))
        #expect(run.standardOutput.contains(#"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'FavoriteProducts', 1, 0);"#))
        #expect(run.standardOutput.contains(#"VALUES (1, upper(gen_random_uuid()::text), '\x62706C697374"#))
        let withViews = try Self.run("sql", "Models/Products.xcdatamodeld", "--dialect", "postgresql", "--views")
        #expect(withViews.status != 0 && withViews.standardError.contains("--views"))
    }
}
