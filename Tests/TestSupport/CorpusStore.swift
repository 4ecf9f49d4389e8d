import DataModel
import DataModelParser
import Foundation

/// A folder of `../shared/corpus/stores`: a store Core Data wrote, the model version that wrote it
/// (`model-version.txt`), and dumps of its metadata.
public struct CorpusStore: Sendable {
    /// `../shared/corpus` beside the repository.
    public static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// The folder names of every store, sorted; empty without the corpus.
    public static func names() -> [String] {
        let folder = corpus.appendingPathComponent("stores")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted()
    }

    public let name: String
    public var folder: URL { Self.corpus.appendingPathComponent("stores/\(name)") }

    public init(_ name: String) {
        self.name = name
    }

    /// The folder of the model version that wrote the store (`model-version.txt` names it).
    public func modelURL() throws -> URL {
        let version = try String(contentsOf: folder.appendingPathComponent("model-version.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return folder.appendingPathComponent(version)
    }

    /// The model version that wrote the store.
    public func model() throws -> Model {
        try ModelLoader().load(modelURL().path).model
    }

    /// A copy of the store file in a new temporary directory (the originals are WAL files, and are
    /// never opened in place).
    public func copyOfStoreFile() throws -> URL {
        let dumps = [".md", ".txt", ".sql", ".tsv", ".plist"]
        guard let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).first(where: { file in
            !dumps.contains { file.hasSuffix($0) } && !file.contains(".xcdatamodel")
        }) else { throw CocoaError(.fileNoSuchFile) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(file)
        try FileManager.default.copyItem(at: folder.appendingPathComponent(file), to: copy)
        return copy
    }
}
