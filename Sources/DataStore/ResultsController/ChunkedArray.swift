/// An array kept in chunks of at most `chunkCapacity` elements: inserting or removing one element
/// moves the elements of one chunk, not of the whole list, so a change to a list of a million rows
/// costs about what it costs in a list of ten thousand.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// Past this many elements a chunk splits in two.
    let chunkCapacity: Int
    private var chunks: [[Element]] = []
    /// The position of each chunk's first element.
    private var starts: [Int] = []
    private(set) var count = 0

    init(chunkCapacity: Int = 4096) {
        self.chunkCapacity = chunkCapacity
    }

    init(_ elements: some Sequence<Element>, chunkCapacity: Int = 4096) {
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
        starts.append(count)
        count += chunk.count
        chunks.append(chunk)
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
        }
    }

    /// The chunk holding `position` and the offset in it.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }

    mutating func insert(_ element: Element, at position: Int) {
        precondition(position >= 0 && position <= count, "index \(position) out of range 0...\(count)")
        guard !chunks.isEmpty else {
            chunks = [[element]]
            starts = [0]
            count = 1
            return
        }
        let (chunk, offset) = position == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(position)
        chunks[chunk].insert(element, at: offset)
        count += 1
        for later in (chunk + 1)..<starts.count { starts[later] += 1 }
        if chunks[chunk].count > chunkCapacity {
            // Split in halves, so that the next inserts here move half a chunk.
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            starts.insert(starts[chunk] + half, at: chunk + 1)
        }
    }

    @discardableResult
    mutating func remove(at position: Int) -> Element {
        let (chunk, offset) = locate(position)
        let element = chunks[chunk].remove(at: offset)
        count -= 1
        for later in (chunk + 1)..<starts.count { starts[later] -= 1 }
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            starts.remove(at: chunk)
        }
        return element
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

extension ChunkedArray where Element: Equatable {
    /// The first position of `element` in `range` (everywhere by default), scanning chunk by chunk.
    func position(of element: Element, in range: Range<Int>? = nil) -> Int? {
        let range = range ?? 0..<count
        guard !range.isEmpty else { return nil }
        var (chunk, offset) = locate(range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound {
            let take = Swift.min(chunks[chunk].count - offset, range.upperBound - position)
            if let found = chunks[chunk][offset..<(offset + take)].firstIndex(of: element) {
                return starts[chunk] + found
            }
            position += take
            chunk += 1
            offset = 0
        }
        return nil
    }
}
