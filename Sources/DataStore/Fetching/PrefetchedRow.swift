/// The saved state of an object a prefetch loaded: what filling its fault needs, without the store.
struct PrefetchedRow {
    let attributeValues: AttributeValues
    let relationshipValues: [RelationshipValue]
    let version: Int64

    init(_ object: ManagedObject) {
        attributeValues = object.savedAttributeValues
        relationshipValues = object.savedRelationshipValues
        version = object.version
    }

    func fill(_ object: ManagedObject) {
        object.setLoadedValues(attributeValues, relationshipValues)
        object.version = version
        object.faultState = .fetched
    }
}
