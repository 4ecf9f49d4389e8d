import Foundation

/// Where SwiftPM put the package's executables, so tests can run them as a user would.
public enum BuiltProducts {
    public static var directory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }
}
