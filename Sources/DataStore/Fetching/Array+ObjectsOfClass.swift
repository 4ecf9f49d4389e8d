extension Array where Element == ManagedObject {
    /// The objects that are `Result`s, in order. The class is checked once per run of objects of one
    /// class rather than with a cast per object, and when every object is one — the usual case —
    /// the array is returned as it is, without copying.
    func objects<Result: ManagedObject>(of _: Result.Type) -> [Result] {
        var checkedClass: ManagedObject.Type?
        var allMatch = true
        for object in self where type(of: object) != checkedClass {
            guard type(of: object) is Result.Type else {
                allMatch = false
                break
            }
            checkedClass = type(of: object)
        }
        // An array of class references has the same layout whatever its static element class.
        if allMatch { return unsafeBitCast(self, to: [Result].self) }
        return compactMap { $0 as? Result }
    }
}
