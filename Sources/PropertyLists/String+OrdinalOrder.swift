extension String {
    /// Byte-wise UTF-8 order, independent of locale and of Unicode normalisation: the order of a
    /// binary property list's keys, and of Core Data's version hashes.
    package static func ordinalLess(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
