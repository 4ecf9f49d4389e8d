extension String {
    /// `parts` one after another, in one allocation (a chain of `+` allocates every intermediate).
    init(concatenating parts: String...) {
        self.init()
        reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { append(part) }
    }
}
