/// An error an engine throws, as far as the store must tell one kind from another.
package protocol StoreEngineError: Error {
    /// Whether the disk had no room for what a transaction wrote.
    var isStorageFull: Bool { get }
}
