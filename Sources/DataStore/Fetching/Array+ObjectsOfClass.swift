extension Array where Element == ManagedObject {
    /// The objects that are `Result`s, in order. An object's class is its entity's, so the classes
    /// are checked per entity of `entities` (those the objects can be of) rather than per object;
    /// when every one is a `Result` class — the usual case — the array is returned as it is,
    /// without copying and without reading the objects.
    func objects<Result: ManagedObject>(of _: Result.Type, entities: some Sequence<EntityDescription>) -> [Result] {
        // An array of class references has the same layout whatever its static element class.
        if entities.allSatisfy({ $0.objectClass is Result.Type }) { return unsafeBitCast(self, to: [Result].self) }
        return compactMap { $0 as? Result }
    }
}
