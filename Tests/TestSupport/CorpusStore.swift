import DataModel
import DataModelParser
import Foundation

/// A folder of `../shared/corpus/stores` or `../shared/stores-incoming`: a store Core Data wrote,
/// the model version that wrote it (`model-version.txt`), and dumps of its metadata.
public struct CorpusStore: Sendable {
    /// `../shared/corpus` beside the repository.
    public static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// The folders that hold stores: the corpus's and the incoming ones beside it.
    public static let storeFolders = [
        corpus.appendingPathComponent("stores"), corpus.deletingLastPathComponent().appendingPathComponent("stores-incoming"),
    ]

    /// The folder names of every store of both folders, sorted; empty without the corpus.
    public static func names() -> [String] {
        storeFolders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".md") }
        }.sorted()
    }

    public let name: String
    public let folder: URL

    public init(_ name: String) {
        self.name = name
        let folders = Self.storeFolders.map { $0.appendingPathComponent(name) }
        folder = folders.first { FileManager.default.fileExists(atPath: $0.path) } ?? folders[0]
    }

    /// `NSPersistenceFrameworkVersion` as `metadata.plist` records it: the Core Data release that
    /// wrote the store.
    public func frameworkVersion() throws -> Int {
        let plist = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: folder.appendingPathComponent("metadata.plist")), format: nil)
        guard let number = (plist as? [String: Any])?["NSPersistenceFrameworkVersion"] as? Int else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return number
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
        let dumps = [".md", ".txt", ".sql", ".tsv", ".plist", "-wal", "-shm"]
        guard let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).first(where: { file in
            !dumps.contains { file.hasSuffix($0) } && !file.contains(".xcdatamodel")
        }) else { throw CocoaError(.fileNoSuchFile) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // With its write-ahead log, which may hold the last transactions Core Data committed.
        for name in [file, file + "-wal", file + "-shm"] where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory.appendingPathComponent(file)
    }
}
