/// What one save writes, read from the context's objects before the write starts: values only,
/// so the write can run on another thread while the caller's isolation — and the objects — go on.
struct SaveChanges: Sendable {
    /// One object as the save writes it. A class: a save of many objects passes each row through
    /// several steps, and a reference is one count to keep where the values are several.
    final class Row: Sendable {
        let objectID: ObjectID
        /// The `Z_OPT` the context read: the version the row must still have.
        let version: Int64
        /// Every attribute's value, by slot (none for a deleted object).
        let attributes: AttributeValues
        /// The slots of an updated object whose values differ from the saved ones.
        let changedSlots: [Int]
        /// Every relationship's value, by slot, and the value last saved.
        let relationships: [RelationshipValue]
        let savedRelationships: [RelationshipValue]
        /// The names of an updated object's changed properties: for the history and the change set.
        let changedKeys: Set<String>

        /// The object's entity, kept by its ID.
        var entity: EntityDescription { objectID.scope.entity }

        /// An object to insert: every value, nothing changed yet. `values` writes the values of
        /// many rows into one buffer, so a large save allocates once per many rows.
        init(inserting object: ManagedObject, values: inout AttributeValues.Writer) {
            objectID = object.objectID
            version = 0
            attributes = object.currentAttributeValues(writingInto: &values)
            changedSlots = []
            relationships = object.relationshipValues
            savedRelationships = object.savedRelationshipValues
            changedKeys = []
        }

        /// A saved object with changes: its `current` values, one per attribute of its entity, and
        /// which ones changed.
        init(updating object: ManagedObject, current: AttributeValues, changedSlots: [Int], changedKeys: Set<String>) {
            objectID = object.objectID
            version = object.version
            attributes = current
            self.changedSlots = changedSlots
            relationships = object.relationshipValues
            savedRelationships = object.savedRelationshipValues
            self.changedKeys = changedKeys
        }

        /// A saved object to delete: its ID and version.
        init(deleting object: ManagedObject) {
            objectID = object.objectID
            version = object.version
            attributes = AttributeValues()
            changedSlots = []
            relationships = []
            savedRelationships = []
            changedKeys = []
        }
    }

    let inserted: [Row]
    let updated: [Row]
    let deleted: [Row]
    /// The context's `transactionAuthor` and `name`, which the history records.
    let author: String?
    let contextName: String?
}

