/// An array kept in chunks of at most `chunkCapacity` elements: inserting or removing one element
/// moves the elements of one chunk, not of the whole list, so a change to a list of a million rows
/// costs about what it costs in a list of ten thousand. Finding an element looks inside only the
/// chunks whose `MembershipFilter` says they may hold it, once `prepareFilters()` or a first
/// search has made them.
struct ChunkedArray<Element: FixedWidthInteger>: RandomAccessCollection, MutableCollection {
    /// The chunk capacity unless told otherwise: a full chunk's elements are one position apart.
    static var defaultChunkCapacity: Int { 4096 }
    /// Past this many elements a chunk splits in two.
    let chunkCapacity: Int
    private var chunks: [[Element]] = []
    /// The position of each chunk's first element.
    private(set) var chunkStarts: [Int] = []
    /// Each chunk's filter, once a search made it; kept up to date from then on.
    private var filters: [MembershipFilter?] = []
    private(set) var count = 0

    init(chunkCapacity: Int = defaultChunkCapacity) {
        self.chunkCapacity = chunkCapacity
    }

    init(_ elements: some Sequence<Element>, chunkCapacity: Int = defaultChunkCapacity) {
        self.chunkCapacity = chunkCapacity
        var chunk: [Element] = []
        chunk.reserveCapacity(chunkCapacity)
        for element in elements {
            chunk.append(element)
            if chunk.count == chunkCapacity { appendChunk(&chunk) }
        }
        if !chunk.isEmpty { appendChunk(&chunk) }
    }

    private mutating func appendChunk(_ chunk: inout [Element]) {
        chunkStarts.append(count)
        count += chunk.count
        chunks.append(chunk)
        filters.append(nil)
        chunk.removeAll(keepingCapacity: true)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        get {
            let (chunk, offset) = locate(position)
            return chunks[chunk][offset]
        }
        set {
            let (chunk, offset) = locate(position)
            chunks[chunk][offset] = newValue
            filters[chunk]?.insert(newValue)
            noteRemoval(fromChunk: chunk)
        }
    }

    /// The elements of chunk `index` (the one starting at `chunkStarts[index]`).
    func chunk(_ index: Int) -> [Element] {
        chunks[index]
    }

    /// The chunk holding `position` and the offset in it.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
        var low = 0, high = chunkStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - chunkStarts[low])
    }

    mutating func insert(_ element: Element, at position: Int) {
        precondition(position >= 0 && position <= count, "index \(position) out of range 0...\(count)")
        guard !chunks.isEmpty else {
            chunks = [[element]]
            chunkStarts = [0]
            filters = [nil]
            count = 1
            return
        }
        let (chunk, offset) = position == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(position)
        chunks[chunk].insert(element, at: offset)
        filters[chunk]?.insert(element)
        count += 1
        for later in (chunk + 1)..<chunkStarts.count { chunkStarts[later] += 1 }
        if chunks[chunk].count > chunkCapacity {
            // Split in halves, so that the next inserts here move half a chunk.
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            chunkStarts.insert(chunkStarts[chunk] + half, at: chunk + 1)
            // The next search makes the halves' filters.
            filters[chunk] = nil
            filters.insert(nil, at: chunk + 1)
        }
    }

    @discardableResult
    mutating func remove(at position: Int) -> Element {
        let (chunk, offset) = locate(position)
        let element = chunks[chunk].remove(at: offset)
        count -= 1
        for later in (chunk + 1)..<chunkStarts.count { chunkStarts[later] -= 1 }
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            chunkStarts.remove(at: chunk)
            filters.remove(at: chunk)
        } else {
            noteRemoval(fromChunk: chunk)
        }
        return element
    }

    /// Counts an element gone from `chunk` in its filter, and makes the filter again from the
    /// chunk once as many have gone as it can hold.
    private mutating func noteRemoval(fromChunk chunk: Int) {
        guard filters[chunk] != nil else { return }
        filters[chunk]!.noteRemoval()
        if filters[chunk]!.staleCount >= chunkCapacity { filters[chunk] = filter(of: chunk) }
    }

    /// The elements at `range`, copied a chunk at a time.
    func elements(in range: Range<Int>) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(range.count)
        guard !range.isEmpty else { return result }
        var (chunk, offset) = locate(range.lowerBound)
        while result.count < range.count {
            let take = Swift.min(chunks[chunk].count - offset, range.count - result.count)
            result += chunks[chunk][offset..<(offset + take)]
            chunk += 1
            offset = 0
        }
        return result
    }

    func makeIterator() -> Iterator {
        Iterator(chunks: chunks)
    }

    /// Walks the chunks in order, without locating each position.
    struct Iterator: IteratorProtocol {
        let chunks: [[Element]]
        var chunk = 0
        var offset = 0

        init(chunks: [[Element]]) {
            self.chunks = chunks
        }

        mutating func next() -> Element? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }
}

extension ChunkedArray {
    /// Makes the filter of every chunk, so that the first search is as quick as the next.
    mutating func prepareFilters() {
        for chunk in chunks.indices where filters[chunk] == nil { filters[chunk] = filter(of: chunk) }
    }

    /// The first position of `element` in `range` (everywhere by default), looking inside only the
    /// chunks that may hold it; makes the filters of the chunks it passes that have none yet.
    mutating func position(of element: Element, in range: Range<Int>? = nil) -> Int? {
        let range = range ?? 0..<count
        guard !range.isEmpty else { return nil }
        var chunk = locate(range.lowerBound).chunk
        while chunk < chunks.count, chunkStarts[chunk] < range.upperBound {
            if filters[chunk] == nil { filters[chunk] = filter(of: chunk) }
            if filters[chunk]!.mayContain(element) {
                let lower = Swift.max(range.lowerBound - chunkStarts[chunk], 0)
                let upper = Swift.min(range.upperBound - chunkStarts[chunk], chunks[chunk].count)
                if let found = chunks[chunk][lower..<upper].firstIndex(of: element) { return chunkStarts[chunk] + found }
            }
            chunk += 1
        }
        return nil
    }

    private func filter(of chunk: Int) -> MembershipFilter {
        MembershipFilter(chunks[chunk], capacity: chunkCapacity)
    }
}
