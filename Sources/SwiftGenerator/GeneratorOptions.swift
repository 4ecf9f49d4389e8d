/// How the generated code is shaped.
public struct GeneratorOptions: Sendable, Equatable {
    /// The access level of generated declarations.
    public enum AccessLevel: String, Sendable, CaseIterable {
        case `public`, `package`, `internal`

        /// The keyword and a space, or nothing for `internal` (the default needs no word).
        var prefix: String { self == .internal ? "" : rawValue + " " }
    }

    /// How the generated code is split into files.
    public enum Layout: String, Sendable, CaseIterable {
        /// A file per entity, named after its class, and the model file, named after the namespace.
        case entityFiles = "entity-files"
        /// One file for the whole model, named after the model.
        case singleFile = "single-file"
        /// The build plugin's: `<Model>+<Entity>.swift` per entity, holding its class and its part
        /// of the compiled model, and `<Model>.swift`: names known from the model's entity names,
        /// and a change to one entity changes one file, which is all the compiler then rebuilds.
        case incremental
    }

    public var accessLevel: AccessLevel
    /// Modules imported by every generated file besides `DataStore` and `Foundation`.
    public var additionalImports: [String]
    public var layout: Layout
    /// Whether reads of the generated properties register with Observation (`withObservationTracking`,
    /// SwiftUI) and changes notify; off, each class says `isObservable` is `false` and its reads
    /// skip the registration.
    public var isObservable: Bool

    public init(
        accessLevel: AccessLevel = .public, additionalImports: [String] = [], layout: Layout = .entityFiles,
        isObservable: Bool = true
    ) {
        self.accessLevel = accessLevel
        self.additionalImports = additionalImports
        self.layout = layout
        self.isObservable = isObservable
    }
}
