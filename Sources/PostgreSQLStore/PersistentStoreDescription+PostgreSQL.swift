import DataStore
import Foundation

extension PersistentStore.StoreType {
    /// A store in a PostgreSQL database, which the description's URL names
    /// (`postgresql://user:password@host:port/database`): opened as
    /// `PersistentStore(postgreSQL:model:history:maximumConnections:migration:)` does, or
    /// `readOnly(postgreSQL:model:maximumConnections:)` for a read-only description.
    public static let postgreSQL = PersistentStore.StoreType(rawValue: "PostgreSQL", open: { description, model throws(StoreError) in
        guard let url = description.url?.absoluteString else {
            throw .unsupportedOption(name: "url", reason: "a PostgreSQL store needs a postgresql:// URL")
        }
        if description.isReadOnly { return try await PersistentStore.readOnly(postgreSQL: url, model: model) }
        return try await PersistentStore(postgreSQL: url, model: model, history: description.history, migration: description.migration)
    })
}

extension PersistentStoreDescription {
    /// A description of the store in the PostgreSQL database at `url`, recording history as a
    /// server's store does by default.
    public static func postgreSQL(url: String) throws(StoreError) -> PersistentStoreDescription {
        guard let url = URL(string: url), url.scheme == "postgresql" || url.scheme == "postgres" else {
            throw .unsupportedOption(name: "url", reason: "'\(url)' is not a postgresql:// URL")
        }
        var description = PersistentStoreDescription(url: url, type: .postgreSQL)
        description.history = .enabled
        return description
    }
}
