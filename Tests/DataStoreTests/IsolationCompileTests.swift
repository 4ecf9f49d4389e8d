import Foundation
import Testing

/// A context's objects never cross isolation: code that tries does not compile. Each snippet is
/// compiled to SIL (where Swift 6 checks regions) against the built `DataStore` module.
@Suite struct IsolationCompileTests {
    static let prelude = """
        import DataStore
        @MainActor func use(_ store: PersistentStore, _ viewContext: ObjectContext) async throws {
            let object = try await viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first!
            let background = store.newBackgroundContext()
            _ = object

        """

    static let misuses: [(name: String, code: String, diagnostic: String)] = [
        ("capturing an object in another context's perform",
         "try await background.perform { context in _ = object.objectID; try context.save() }",
         "capture of 'object' with non-Sendable type 'ManagedObject'"),
        ("returning an object from a background context",
         "let leaked = try await background.perform { context in try context.fetch(FetchRequest<ManagedObject>(entityName: \"Book\")) }; _ = leaked",
         "conform to the 'Sendable' protocol"),
        ("sending the view context to another task",
         "Task.detached { _ = viewContext.hasChanges }",
         "risks causing data races"),
        ("sending an object to another task",
         "Task.detached { _ = object.isFault }",
         "risks causing data races"),
    ]

    @Test(arguments: misuses.indices)
    func misuse_doesNotCompile(index: Int) throws {
        let misuse = Self.misuses[index]
        let result = try Self.compile(Self.prelude + "    " + misuse.code + "\n}\n")
        #expect(result.status != 0, "\(misuse.name) compiled")
        #expect(result.output.contains(misuse.diagnostic), "\(misuse.name): \(result.output)")
    }

    @Test func passingIDs_compiles() throws {
        let code = """
                let id = object.objectID
                let title = try await background.perform { context in
                    try context.existingObject(with: id).value(forKey: "title") as? String
                }
                _ = title
            }

            """
        let result = try Self.compile(Self.prelude + code)
        #expect(result.status == 0, "\(result.output)")
    }

    /// The asynchronous forms, awaited on the main actor with the main actor's context and objects,
    /// compile without an error or a warning: nothing they take or return must be `Sendable`.
    @Test func asyncForms_compileOnTheMainActorWithoutWarnings() throws {
        let code = """
                _ = background
                var request = FetchRequest<ManagedObject>(entityName: "Book")
                request.fetchBatchSize = 10
                let books = try await viewContext.fetch(request)
                let count = try await viewContext.count(for: request)
                let ids = try await viewContext.fetchObjectIDs(request)
                let batched = try await viewContext.fetchBatched(request)
                try await viewContext.fulfillFaults(of: books + [object])
                var totals = FetchRequest<ManagedObject>(entityName: "Book")
                totals.propertiesToFetch = ["title"]
                let titles = try await viewContext.fetchDictionaries(totals)
                _ = titles
                try object.setValue("edited", forKey: "title")
                try await viewContext.save()
                let reopened = try await PersistentStore.open(url: store.url!, model: store.model)
                print(books.count, count, ids.count, batched.count, reopened.identifier, object.isFault)
            }

            """
        let result = try Self.compile(Self.prelude + code)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    /// Compiles `source` to SIL, which runs every isolation check, with the package's built modules.
    static func compile(_ source: String) throws -> (status: Int32, output: String) {
        let modules = try builtModules()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("isolation-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let sqliteModuleMap = try sqliteModuleMap(above: modules)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The system libraries DataStore's modules import: GRDB's SQLite and the package's zlib.
        let zlibModuleMap = TestStores.packageRoot.appendingPathComponent("Sources/CZlib/module.modulemap")
        process.arguments = ["swiftc", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules.path,
                             "-Xcc", "-fmodule-map-file=\(sqliteModuleMap.path)", "-Xcc", "-fmodule-map-file=\(zlibModuleMap.path)", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// GRDB's SQLite module map, in the checkouts of the build holding `modules`.
    static func sqliteModuleMap(above modules: URL) throws -> URL {
        var folder = modules
        while folder.path != "/" {
            let map = folder.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { return map }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "checkouts/GRDB.swift above \(modules.path)"])
    }

    /// The `Modules` folder of the build that runs these tests.
    static func builtModules() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while folder.path != "/" {
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("DataStore.swiftmodule").path) { return modules }
            folder.deleteLastPathComponent()
        }
        let fallback = TestStores.packageRoot.appendingPathComponent(".build/debug/Modules")
        try #require(FileManager.default.fileExists(atPath: fallback.appendingPathComponent("DataStore.swiftmodule").path), "no built DataStore module")
        return fallback
    }
}
