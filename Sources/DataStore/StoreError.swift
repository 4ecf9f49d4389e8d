/// Why a store could not be opened or used.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The store was written with a different model: the entities whose version hashes differ (or
    /// that only one side has). Migration is needed; nothing was changed.
    case modelMismatch(entities: [String])
    /// The file is not a store in Core Data's layout (no `Z_METADATA`, `Z_PRIMARYKEY`, or an unreadable
    /// metadata blob).
    case notAStore(reason: String)
    /// There is no file at the path of a store opened read-only.
    case fileNotFound(path: String)
    /// The store's file (or its folder) cannot be written; ``PersistentStore/readOnly(url:model:)``
    /// opens it for reading.
    case readOnlyFile(path: String)
    /// SQLite reported an error.
    case database(message: String)
    /// The store lacks a table the model keeps its objects in.
    case missingTable(String)
    /// Migrating the store to the model's version failed; the store is as it was before the
    /// failing step.
    case migration(MigrationError)
    /// The store's persistent history could not be read or deleted.
    case history(HistoryError)
    /// A table of the store lacks a column the model reads or writes.
    case missingColumn(table: String, column: String)
    /// An option of a ``PersistentStoreDescription`` (or a pragma) this store cannot take, and why.
    case unsupportedOption(name: String, reason: String)
    /// The store's tables fit the model in more than one way (`JoinTableLocationError`):
    /// nothing is read rather than something read wrong.
    case ambiguousLayout(String)
    /// The store carries no model that can be read (no `Z_MODELCACHE`, as in stores of Core Data's
    /// releases before 2011, or one that does not decode), and why.
    case noCarriedModel(reason: String)
    /// Stores that cannot be a coordinator's: a configuration the model lacks, two stores holding
    /// one entity, stores of other models or engines.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .modelMismatch(let entities):
            "the store was written with a different model; entities that differ: \(entities.joined(separator: ", "))"
        case .notAStore(let reason): "not a Core Data store: \(reason)"
        case .fileNotFound(let path): "no store at \(path)"
        case .readOnlyFile(let path): "the store at \(path) cannot be written; open it with PersistentStore.readOnly(url:model:) to read it"
        case .database(let message): "database error: \(message)"
        case .missingTable(let table): "the store has no table \(table), which the model needs"
        case .missingColumn(let table, let column): "table \(table) of the store has no column \(column), which the model needs"
        case .migration(let error): "\(error)"
        case .history(let error): "\(error)"
        case .unsupportedOption(let name, let reason): "unsupported option \(name): \(reason)"
        case .ambiguousLayout(let message): message
        case .noCarriedModel(let reason): "the store carries no model that can be read: \(reason)"
        case .invalidConfiguration(let reason): "invalid configuration of stores: \(reason)"
        }
    }
}
