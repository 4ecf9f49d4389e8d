import Foundation
import TestSupport
import Testing

/// Compares `actual` with `Goldens/<goldenPath>` of this test target (see `TestSupport`).
func expectGolden(_ actual: String, _ goldenPath: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try TestSupport.expectGolden(actual, goldenPath, in: TestPaths.goldens, sourceLocation: sourceLocation)
}
