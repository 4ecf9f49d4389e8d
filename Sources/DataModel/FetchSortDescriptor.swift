/// One key of the order of a fetch the model declares, as a compiled model (a store's model cache)
/// may hold it for a fetched property or a fetch request template. Xcode's XML has no place for
/// it: only models built in code have one.
public struct FetchSortDescriptor: Sendable, Equatable, Encodable {
    /// The key path sorted by.
    public var keyPath: String
    public var ascending: Bool
    /// The comparison's selector: `compare:`, `caseInsensitiveCompare:`, `localizedStandardCompare:`…
    public var selector: String

    public init(keyPath: String, ascending: Bool = true, selector: String = "compare:") {
        self.keyPath = keyPath
        self.ascending = ascending
        self.selector = selector
    }
}
