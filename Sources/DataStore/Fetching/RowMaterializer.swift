/// Turns the rows a fetch reads into objects: a row's registered object, filled if it was a fault,
/// or a new one. The rows of a fetch are mostly of one entity, so the entity is looked up once per
/// run of rows of one entity rather than once per row: this is the inner loop of every fetch.
struct RowMaterializer {
    let context: ObjectContext
    /// Whether objects filled here keep reporting themselves faults until first used.
    let asFaults: Bool
    private let store: PersistentStore
    /// What the context's registry adds to the rows' entity numbers for this store.
    private let registryOffset: Int
    /// The entity of the last row (its IDs' scope holds its description), and how to fill its objects.
    private var scope: ObjectID.Scope
    private var layout: RowLayout
    /// Whether rows may be of several entities; otherwise they are all of `scope`'s, and `Z_ENT`
    /// need not be read.
    private let readsEntityColumn: Bool
    /// Where the rows' attribute values go, many rows to a buffer.
    private var values = AttributeValues.Writer(valuesPerBuffer: Self.valuesPerBuffer)
    /// The rows' relationship values, shared by rows that lead to the same object.
    private var relationships = SharedRelationshipValues()

    /// About 100 KB of values. Buffers under 64 KB made a 100,000-row fetch and its release 15%
    /// slower (glibc frees them through its bins, merging neighbours each time); an object kept
    /// from a large fetch keeps at most one buffer alive with its row.
    private static let valuesPerBuffer = 4_096

    /// A materializer for rows of `entity`'s table (of `entity` or, when it has subentities, of them too).
    init(context: ObjectContext, entity: EntityDescription, asFaults: Bool) {
        self.context = context
        self.asFaults = asFaults
        store = context.store(holding: entity)
        registryOffset = context.coordinator.registryOffset(of: store)
        scope = store.idScope(entityNumber: entity.number)
        layout = scope.entity.rowLayout
        readsEntityColumn = !entity.isSoleEntityOfTable
    }

    /// The object for `row`, which selects the entity's `selectColumns`.
    mutating func object(for row: RowColumns) -> ManagedObject {
        let key = ObjectID.Key.permanent(row.int64(1))
        let entityNumber = readsEntityColumn ? Int(row.int64(0)) : scope.entityNumber
        let slot = context.registrySlot(for: ObjectID.Row(entityNumber: entityNumber | registryOffset, key: key))
        if let registered = context.registeredObject(at: slot) {
            guard !registered.isLoaded else { return registered }
            registered.entity.rowLayout.fill(registered, from: row, into: &values, sharing: &relationships, context: context)
            if asFaults { registered.faultState = .fetchedAsFault }
            return registered
        }
        if entityNumber != scope.entityNumber { useEntity(numbered: entityNumber) }
        let object = scope.entity.objectClass.init(ObjectCreation(objectID: ObjectID(scope: scope, key: key), context: context))
        context.register(object, at: slot)
        layout.fill(object, from: row, into: &values, sharing: &relationships, context: context)
        if asFaults { object.faultState = .fetchedAsFault }
        return object
    }

    /// Makes the entity numbered `number` the current one (the first entity for a number no entity
    /// has, from a damaged store).
    private mutating func useEntity(numbered number: Int) {
        scope = store.idScope(entityNumber: number)
        layout = scope.entity.rowLayout
    }
}
