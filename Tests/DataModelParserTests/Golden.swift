import Foundation
import TestSupport
import Testing

/// Paths of the test sources, so fixtures and goldens are read from (and recorded into) the repository.
enum TestPaths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    static let goldens = testsDirectory.appendingPathComponent("Goldens")
    /// `../shared/corpus` beside the repository; tests that need it are disabled when it is absent.
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// A path relative to the package root, as a user would type it.
    static func relative(_ url: URL) -> String {
        let root = packageRoot.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}

/// Compares `actual` with `Goldens/<goldenPath>` of this test target (see `TestSupport`).
func expectGolden(_ actual: String, _ goldenPath: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try TestSupport.expectGolden(actual, goldenPath, in: TestPaths.goldens, sourceLocation: sourceLocation)
}

extension TestPaths {
    /// `url` as the loader should see it: absolute, since tests run from any directory.
    static func relativeToCurrentDirectory(_ url: URL) -> String { url.standardizedFileURL.path }
}
