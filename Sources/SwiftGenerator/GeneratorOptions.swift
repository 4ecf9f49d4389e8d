/// How the generated code is shaped.
public struct GeneratorOptions: Sendable, Equatable {
    /// The access level of generated declarations.
    public enum AccessLevel: String, Sendable, CaseIterable {
        case `public`, `package`, `internal`

        /// The keyword and a space, or nothing for `internal` (the default needs no word).
        var prefix: String { self == .internal ? "" : rawValue + " " }
    }

    public var accessLevel: AccessLevel
    /// Modules imported by every generated file besides `DataStore` and `Foundation`.
    public var additionalImports: [String]
    /// One file for the whole model instead of one per entity plus the model file.
    public var singleFile: Bool

    public init(accessLevel: AccessLevel = .public, additionalImports: [String] = [], singleFile: Bool = false) {
        self.accessLevel = accessLevel
        self.additionalImports = additionalImports
        self.singleFile = singleFile
    }
}
