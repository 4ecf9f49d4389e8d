extension String {
    /// The string without leading and trailing spaces and tabs, as model values are read.
    /// Cheaper than Foundation's `trimmingCharacters(in:)`, which bridges through `NSString`.
    package var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
