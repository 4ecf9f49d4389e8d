/// The field names of a keyed archive's objects, found by their text: a table made once per
/// archive, so that reading a field of any object compares two numbers instead of two strings.
///
/// Open addressing over a hash of the name's UTF-8 bytes, for the few dozen names an archive
/// uses: a reader of a thousand objects looks names up tens of thousands of times, and this costs
/// a fraction of a `Dictionary<String, Int>` lookup, whose hasher is made for untrusted keys.
struct FieldNameTable: Sendable {
    /// By slot: the property-list index of a name's first copy, or -1.
    private var slots: [Int]
    private var hashes: [UInt32]
    private let mask: Int

    /// A table for `names`, the text of each name and the index of its first copy.
    init(_ names: [(text: String, index: Int)]) {
        var capacity = 16
        while capacity < names.count * 2 { capacity *= 2 }
        slots = [Int](repeating: -1, count: capacity)
        hashes = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
        for (text, index) in names {
            let hash = Self.hash(text)
            var slot = Int(hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = index
            hashes[slot] = hash
        }
    }

    /// The property-list index of the name `text`'s first copy, if an object of the archive uses
    /// it; `isName` tells whether an index holds that text.
    func index(of text: String, isName: (Int) -> Bool) -> Int? {
        let hash = Self.hash(text)
        var slot = Int(hash) & mask
        while slots[slot] >= 0 {
            if hashes[slot] == hash, isName(slots[slot]) { return slots[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// FNV-1a over the UTF-8 bytes.
    private static func hash(_ text: String) -> UInt32 {
        var text = text
        return text.withUTF8 { bytes in
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        }
    }
}
