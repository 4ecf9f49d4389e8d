extension Array where Element == ManagedObject {
    /// The objects that are `Object`s, in order. An object's class is its entity's, so the classes
    /// are checked per entity of `entities` (those the objects can be of) rather than per object;
    /// when every one is a `Object` class — the usual case — the array is returned as it is,
    /// without copying and without reading the objects.
    func objects<Object: ManagedObject>(of _: Object.Type, entities: some Sequence<EntityDescription>) -> [Object] {
        // An array of class references has the same layout whatever its static element class.
        if entities.allSatisfy({ $0.objectClass is Object.Type }) { return unsafeBitCast(self, to: [Object].self) }
        return compactMap { $0 as? Object }
    }
}
