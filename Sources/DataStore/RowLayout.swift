import DataModel
import GRDB
import GRDBSQLite

/// How to turn a row of an entity's table into an object's storage, precomputed once per entity so
/// that loading a row copies no descriptions and looks up no names.
final class RowLayout: Sendable {
    /// One attribute slot: the column it is read from, or a composite assembled from its leaf
    /// columns; neither for a transient attribute (which starts with its default value). Plain
    /// data, so reading a row copies no references.
    struct AttributeRead: Sendable {
        var column: Int32?
        var type: AttributeType
        var isComposite: Bool
    }

    /// A to-one stored in this row: the destination's key column, its entity column when the
    /// destination has subentities, and the entity to assume otherwise.
    struct ToOneRead: Sendable {
        var slot: Int
        var column: Int32
        var entityColumn: Int32?
        var destinationEntityNumber: Int
    }

    /// In slot order.
    let attributes: [AttributeRead]
    /// The composite attributes by slot.
    let composites: [Int: AttributeDescription]
    /// The slots of the attributes with columns, in slot order (the order of `INSERT`'s columns).
    let storedAttributeSlots: [Int]
    let toOnes: [ToOneRead]
    /// The relationship storage of a freshly loaded row before its to-ones are read: to-many
    /// relationships load on first use, transient ones start empty.
    let relationshipTemplate: [RelationshipValue]
    /// A new object's attribute values: the model's defaults.
    let defaultValues: AttributeValues
    /// A new object's relationships: to-ones `nil`, to-manys empty.
    let emptyRelationships: [RelationshipValue]
    /// Whether the entity's class keeps the values in stored properties (`ManagedObject.generatedModel`).
    let fillsProperties: Bool
    /// Whether any attribute is derived: asked by every generated setter, which most entities answer
    /// without looking at the attribute.
    let hasDerivedAttributes: Bool

    init(attributes: [AttributeDescription], relationships: [RelationshipDescription], fillsProperties: Bool) {
        self.fillsProperties = fillsProperties
        hasDerivedAttributes = attributes.contains(where: \.isDerived)
        // A stored attribute without a column of its own is a composite: its leaves have the columns.
        let composites = attributes.filter { $0.isStored && $0.columnIndex == nil }
        self.attributes = attributes.map { attribute in
            AttributeRead(
                column: attribute.columnIndex.map(Int32.init), type: attribute.type,
                isComposite: attribute.isStored && attribute.columnIndex == nil)
        }
        self.composites = Dictionary(uniqueKeysWithValues: composites.map { ($0.slot, $0) })
        storedAttributeSlots = attributes.filter(\.isStored).map(\.slot)
        toOnes = relationships.compactMap { relationship in
            guard case .foreignKey(let column, let entityColumn, _) = relationship.storage else { return nil }
            return ToOneRead(
                slot: relationship.slot, column: Int32(column), entityColumn: entityColumn.map(Int32.init),
                destinationEntityNumber: relationship.destinationEntityNumber)
        }
        defaultValues = AttributeValues(attributes.map(\.defaultValue))
        emptyRelationships = relationships.map { $0.isToMany ? .toMany(ObjectIDList()) : .toOne(nil) }
        relationshipTemplate = zip(relationships, emptyRelationships).map { relationship, empty in
            switch relationship.storage {
            case .foreignKey, .none: empty
            default: .unloaded
            }
        }
    }

    /// Calls `body` with each column the attribute in `slot` is stored in and the value `value`
    /// stores there: its own column, or each leaf's of a composite. A plain attribute's column is
    /// read here, without copying its description.
    func forEachStoredColumn(ofSlot slot: Int, value: AttributeValue, _ body: (_ columnIndex: Int, _ stored: AttributeValue) -> Void) {
        let read = attributes[slot]
        if read.isComposite, let composite = composites[slot] { return composite.forEachStoredColumn(of: value, body) }
        if let column = read.column { body(Int(column), value) }
    }

    /// Sets `object`'s values from `row`, which selects the entity's `selectColumns`: into the
    /// class's stored properties when it has them, else into a row of `values`; its relationship
    /// values shared with rows before that lead to the same object. This is the inner loop of
    /// every fetch.
    func fill(
        _ object: ManagedObject, from row: RowColumns, into values: inout AttributeValues.Writer,
        sharing shared: inout SharedRelationshipValues, context: ObjectContext
    ) {
        if fillsProperties, fillProperties(of: object, from: row) {
            // An entity without relationships keeps its empty array: no copy to make or release.
            if relationshipTemplate.isEmpty {
                object.keepValuesAsSaved()
            } else {
                object.setLoadedRelationshipValues(relationships(from: row, of: object, sharing: &shared, context: context))
            }
        } else {
            let loaded = values.row(count: attributes.count) { value(atSlot: $0, of: row) }
            object.setLoadedValues(loaded, relationships(from: row, of: object, sharing: &shared, context: context))
        }
        object.version = row.int64(2)
        object.faultState = .fetched
    }

    /// Reads the row into the object's stored properties; `false` when one of them cannot hold its
    /// value, which the buffer then holds.
    private func fillProperties(of object: ManagedObject, from row: RowColumns) -> Bool {
        let isRead = attributes.withUnsafeBufferPointer { reads in
            object.readStoredAttributes(from: StoreRow(columns: row, reads: reads, layout: self))
        }
        guard isRead else { return false }
        if object.valueBuffer != nil { object.valueBuffer = nil }
        object.valueStorage = .properties
        return true
    }

    /// The value of the attribute in `slot` in `row`: its column's, its leaf columns' for a
    /// composite, its default for a transient.
    @inline(__always)
    func value(atSlot slot: Int, of row: RowColumns) -> AttributeValue {
        attributes.withUnsafeBufferPointer { reads in
            if let column = reads[slot].column {
                row.attributeValue(column, as: reads[slot].type)
            } else if reads[slot].isComposite, let composite = composites[slot] {
                composite.compositeValue { leaf in
                    row.attributeValue(Int32(leaf.columnIndex ?? 0), as: leaf.type)
                }
            } else {
                defaultValues[slot]
            }
        }
    }

    /// The relationship values of `row`: its to-ones' destinations, the rest as the template has
    /// them. With one to-one, those of an earlier row leading to the same object, if `shared` has them.
    private func relationships(
        from row: RowColumns, of object: ManagedObject, sharing shared: inout SharedRelationshipValues, context: ObjectContext
    ) -> [RelationshipValue] {
        guard toOnes.count == 1 else { return relationships(from: row, of: object, context: context) }
        let read = toOnes[0]
        guard !row.isNull(read.column) else { return relationshipTemplate }
        let number = read.entityColumn.map { Int(row.int64($0)) } ?? read.destinationEntityNumber
        return shared.values(of: self, key: row.int64(read.column), entityNumber: number) {
            relationships(from: row, of: object, context: context)
        }
    }

    /// The relationship values of `row`, an array of their own.
    private func relationships(from row: RowColumns, of object: ManagedObject, context: ObjectContext) -> [RelationshipValue] {
        var relationships = relationshipTemplate
        guard !toOnes.isEmpty else { return relationships }
        // A relationship never leads out of its store.
        let store = context.store(of: object)
        for read in toOnes where !row.isNull(read.column) {
            let number = read.entityColumn.map { Int(row.int64($0)) } ?? read.destinationEntityNumber
            relationships[read.slot] = .toOne(store.objectID(key: .permanent(row.int64(read.column)), entityNumber: number))
        }
        return relationships
    }
}
