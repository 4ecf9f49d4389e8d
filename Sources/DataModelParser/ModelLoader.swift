import DataModel
import Foundation

/// Finds, reads, parses and validates a model on disk: an `.xcdatamodeld` bundle, an `.xcdatamodel`
/// folder, or a bare `contents` file.
///
///     let loaded = try ModelLoader().load("Models/Books.xcdatamodeld")
///     for diagnostic in loaded.diagnostics { print(diagnostic) }
///
/// Paths in diagnostics are spelled the way `path` was given, so they read like the command line.
public struct ModelLoader: Sendable {
    /// A model and every diagnostic about it: the parser's and, unless turned off, the validator's.
    public struct Result: Sendable, Equatable {
        public var model: Model
        /// In file order.
        public var diagnostics: [Diagnostic]
        /// The versions the bundle holds (empty for a single `.xcdatamodel` or `contents`).
        public var availableVersions: [String]

        public init(model: Model, diagnostics: [Diagnostic], availableVersions: [String] = []) {
            self.model = model
            self.diagnostics = diagnostics
            self.availableVersions = availableVersions
        }
    }

    public var validates: Bool

    public init(validates: Bool = true) {
        self.validates = validates
    }

    /// Loads the model at `path`.
    ///
    /// - Parameters:
    ///   - path: an `.xcdatamodeld` bundle, an `.xcdatamodel` folder, or a `contents` file.
    ///   - version: for an `.xcdatamodeld`, the version to read instead of the current one
    ///     (`Library 2` or `Library 2.xcdatamodel`).
    public func load(_ path: String, version: String? = nil) throws(ModelLoadingError) -> Result {
        let source = try ModelBundle.resolve(path, version: version)
        let bytes = try Self.read(source.contentsPath)
        let parsed = try ModelParser.parse(bytes, path: source.contentsPath, versionName: source.versionName)
        var diagnostics = parsed.diagnostics
        if validates { diagnostics += ModelValidator().validate(parsed.model) }
        return Result(
            model: parsed.model, diagnostics: diagnostics.sortedByLocation(),
            availableVersions: source.availableVersions)
    }

    /// Loads every version of the bundle at `path`, oldest first (a single `.xcdatamodel` or
    /// `contents` is one version), and tells which one is current: the bundle's, or `version` when
    /// given. What migration needs to carry a store from any earlier version to the current one.
    public func loadVersions(_ path: String, current version: String? = nil) throws(ModelLoadingError) -> (versions: [Result], current: Int) {
        let current = try load(path, version: version)
        guard let position = current.availableVersions.firstIndex(of: current.model.versionName ?? "") else { return ([current], 0) }
        var versions: [Result] = []
        for (offset, name) in current.availableVersions.enumerated() {
            versions.append(offset == position ? current : try load(path, version: name))
        }
        return (versions, position)
    }

    private static func read(_ path: String) throws(ModelLoadingError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelLoadingError(.unreadable, "cannot read the file", at: SourceLocation(file: path))
        }
        return [UInt8](data)
    }
}
