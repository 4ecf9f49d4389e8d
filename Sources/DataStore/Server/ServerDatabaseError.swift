/// An error a server's database throws, as far as the store must tell one kind from another.
package protocol ServerDatabaseError: Error {
    /// Whether the server's disk had no room for what a transaction wrote.
    var isStorageFull: Bool { get }
}
