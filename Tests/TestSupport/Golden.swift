import Foundation
import Testing

/// Compares `actual` with the golden file at `goldenPath` (relative to `Goldens/`).
///
/// With `DATAMODEL_RECORD_GOLDENS=1` the golden is rewritten and the test *fails*, so a recording
/// run can never pass by accident.
public func expectGolden(
    _ actual: String, _ goldenPath: String, in goldens: URL, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let url = goldens.appendingPathComponent(goldenPath)
    if ProcessInfo.processInfo.environment["DATAMODEL_RECORD_GOLDENS"] == "1" {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded \(goldenPath); run again without DATAMODEL_RECORD_GOLDENS", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing golden \(goldenPath); record it with DATAMODEL_RECORD_GOLDENS=1", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record("\(goldenPath) differs:\n\(lineDiff(expected: expected, actual: actual))", sourceLocation: sourceLocation)
    }
}

/// The first differing lines, enough to see what changed.
private func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for index in 0..<max(old.count, new.count) where lines.count < 20 {
        let before = index < old.count ? String(old[index]) : "<end>"
        let after = index < new.count ? String(new[index]) : "<end>"
        if before != after { lines.append("line \(index + 1):\n  - \(before)\n  + \(after)") }
    }
    return lines.joined(separator: "\n")
}
