import Foundation

enum TestPaths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let goldens = testsDirectory.appendingPathComponent("Goldens")
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus.path) }
}
