/// Why a context could not do what was asked (other than saving; see `SaveError`).
public enum ContextError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String)
    /// The entity's objects are not of the requested class.
    case classMismatch(entity: String, type: String)
    /// The store has no row for the ID.
    case objectNotFound(ObjectID)
    /// Key-value coding named a property the entity does not have.
    case unknownKey(entity: String, key: String)
    /// Key-value coding got a value the property cannot hold.
    case invalidValue(entity: String, key: String, value: String)
    /// Key-value coding set a derived attribute, whose value the store computes when saving.
    case derivedKey(entity: String, key: String)
    case database(message: String)
    /// A key path of a predicate, sort descriptor or property list names no property, or goes on
    /// past an attribute.
    case unknownKeyPath(entity: String, keyPath: String)
    /// A predicate the store cannot run: mismatched types, a to-many without a quantifier, …
    case invalidPredicate(String)
    /// A `$VARIABLE` was not substituted before fetching.
    case unboundVariable(String)
    /// The request asks for something that has no meaning, such as a dictionary property that
    /// is neither grouped nor aggregated.
    case invalidFetch(String)
    /// A dictionary result could not be decoded into the type asked for.
    case resultDecoding(type: String, reason: String)
    /// The context's asynchronous save has not ended, and a synchronous read of the store would
    /// see its rows before the context knows them. Await the save first, or read with the
    /// asynchronous form, which waits.
    case saveInProgress
    /// No store of the context's coordinator holds the entity: no loaded store's configuration
    /// names it (Core Data's 134020, "can't resolve how to assign objects to stores").
    case noStore(entity: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): "the model has no entity '\(name)'"
        case .noStore(let entity): "no store of the coordinator holds entity '\(entity)': no loaded store's configuration names it"
        case .classMismatch(let entity, let type): "objects of entity '\(entity)' are not of class \(type)"
        case .objectNotFound(let id): "the store has no object \(id)"
        case .unknownKey(let entity, let key): "entity '\(entity)' has no property '\(key)'"
        case .invalidValue(let entity, let key, let value): "property '\(key)' of entity '\(entity)' cannot hold \(value)"
        case .derivedKey(let entity, let key): "attribute '\(key)' of entity '\(entity)' is derived; the store computes it when saving"
        case .database(let message): "database error: \(message)"
        case .unknownKeyPath(let entity, let keyPath): "entity '\(entity)' has no key path '\(keyPath)'"
        case .invalidPredicate(let reason): "invalid predicate: \(reason)"
        case .invalidFetch(let reason): "invalid fetch request: \(reason)"
        case .resultDecoding(let type, let reason): "a dictionary result does not decode as \(type): \(reason)"
        case .unboundVariable(let name): "variable $\(name) has no value; substitute it with withSubstitutionVariables"
        case .saveInProgress: "the context's asynchronous save has not ended; await it, or read with the asynchronous form"
        }
    }
}
