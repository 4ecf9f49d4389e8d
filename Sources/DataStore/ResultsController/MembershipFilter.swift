/// Which integers a chunk of a `ChunkedArray` may hold: a Bloom filter of 16 bits and 4 probes
/// per element, the probes of one element in one 512-bit block (a cache line), so that asking
/// costs one memory read. About one false "maybe" in 300 chunks, so that finding a key in a list
/// of a million looks inside one chunk instead of all of them.
///
/// Elements removed from the chunk stay in the filter — a "maybe" is only a reason to look — and
/// the filter is made again from the chunk once as many have gone as the chunk can hold.
struct MembershipFilter {
    private var words: [UInt64]
    /// The number of blocks, minus one: the block count is a power of two.
    private let blockMask: UInt64
    /// Elements added then removed since the filter was made.
    private(set) var staleCount = 0

    /// A filter of `elements`, sized for a chunk of up to `capacity` elements.
    init(_ elements: some Sequence<some FixedWidthInteger>, capacity: Int) {
        var blocks = 1
        while blocks * 512 < capacity * 16 { blocks *= 2 }
        words = Array(repeating: 0, count: blocks * 8)
        blockMask = UInt64(blocks - 1)
        for element in elements { insert(element) }
    }

    mutating func insert(_ element: some FixedWidthInteger) {
        let (block, hash) = Self.hash(element, blockMask)
        for probe in 0..<4 {
            let bit = (hash >> (probe * 9)) & 511
            words[block + Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    /// Notes that an element the filter holds left the chunk.
    mutating func noteRemoval() {
        staleCount += 1
    }

    func mayContain(_ element: some FixedWidthInteger) -> Bool {
        let (block, hash) = Self.hash(element, blockMask)
        for probe in 0..<4 {
            let bit = (hash >> (probe * 9)) & 511
            if words[block + Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }

    /// The first word of `element`'s block, and the hash whose low 36 bits place its four bits
    /// there, 9 bits each: one 64-bit hash (SplitMix64's finaliser), its high bits for the block.
    private static func hash(_ element: some FixedWidthInteger, _ blockMask: UInt64) -> (block: Int, hash: UInt64) {
        var z = UInt64(truncatingIfNeeded: element) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Int((z >> 36) & blockMask) * 8, z)
    }
}
