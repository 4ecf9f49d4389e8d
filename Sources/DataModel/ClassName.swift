/// An entity's `representedClassName`, split into module and type name.
///
/// Xcode writes `Book`, `MyApp.Book` (module-qualified) or `.Book` (the leading dot means
/// "the current product module").
public struct ClassName: Sendable, Equatable, Encodable {
    /// The text as written in the model.
    public var rawValue: String
    /// The module the class lives in, when the name is module-qualified (`MyApp` of `MyApp.Book`).
    public var module: String?
    /// The unqualified type name (`Book`).
    public var name: String
    /// `true` for `.Book`: the class belongs to whatever module the generated code is compiled into.
    public var isInCurrentModule: Bool

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        if rawValue.hasPrefix(".") {
            module = nil
            name = String(rawValue.dropFirst())
            isInCurrentModule = true
        } else if let dot = rawValue.lastIndex(of: ".") {
            module = String(rawValue[..<dot])
            name = String(rawValue[rawValue.index(after: dot)...])
            isInCurrentModule = false
        } else {
            module = nil
            name = rawValue
            isInCurrentModule = false
        }
    }
}
