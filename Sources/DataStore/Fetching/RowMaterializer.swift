import GRDB
import GRDBSQLite

/// Turns the rows a fetch reads into objects: a row's registered object, filled if it was a fault,
/// or a new one. The rows of a fetch are mostly of one entity, so the entity is looked up once per
/// run of rows of one entity rather than once per row: this is the inner loop of every fetch.
struct RowMaterializer {
    let context: ObjectContext
    /// Whether objects filled here keep reporting themselves faults until first used.
    let asFaults: Bool
    private var entity: EntityDescription?
    private var scope: ObjectID.Scope?

    init(context: ObjectContext, asFaults: Bool) {
        self.context = context
        self.asFaults = asFaults
    }

    /// The object for the statement's current row, which selects `Z_PK`, `Z_ENT`, `Z_OPT` and
    /// then every column of the table in table order.
    mutating func object(for statement: SQLiteStatement) -> ManagedObject {
        let key = ObjectID.Key.permanent(sqlite3_column_int64(statement, 0))
        let entityNumber = Int(sqlite3_column_int64(statement, 1))
        let object: ManagedObject
        if let registered = context.registeredObject(for: ObjectID.Row(entityNumber: entityNumber, key: key)) {
            guard !registered.isLoaded else { return registered }
            object = registered
        } else {
            let (entity, scope) = entityAndScope(entityNumber)
            object = entity.objectClass.init(ObjectCreation(entity: entity, objectID: ObjectID(scope: scope, key: key), context: context))
            context.register(object)
        }
        context.fill(object, from: statement)
        if asFaults { object.faultState = .fetchedAsFault }
        return object
    }

    /// The entity numbered `number` (the first entity for a number no entity has, from a damaged
    /// store) and its IDs' scope.
    private mutating func entityAndScope(_ number: Int) -> (EntityDescription, ObjectID.Scope) {
        if let entity, let scope, scope.entityNumber == number { return (entity, scope) }
        let store = context.store
        let found = store.entity(number: number) ?? store.entities[0]
        let foundScope = store.idScope(entityNumber: number)
        entity = found
        scope = foundScope
        return (found, foundScope)
    }
}
