@testable import DataStore
import Testing
import TestSupport

/// `ChunkedArray`, the results controller's key list, against `Array` under random edits, with
/// chunks small enough to split and empty out all the time.
@Suite struct ChunkedArrayTests {
    @Test(arguments: [1, 2, 3, 8])
    func randomEdits_matchAnArray(chunkCapacity: Int) {
        var random = SplitMix64(seed: UInt64(chunkCapacity) * 7919)
        var expected = (0..<Int64(20)).map { $0 * 3 }
        var chunked = ChunkedArray(expected, chunkCapacity: chunkCapacity)
        // Filters made up front for some, by the first search for others; kept up to date after.
        if chunkCapacity.isMultiple(of: 2) { chunked.prepareFilters() }
        for step in 0..<3_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let position = Int.random(in: 0...expected.count, using: &random)
                let element = Int64.random(in: 0..<100, using: &random)
                expected.insert(element, at: position)
                chunked.insert(element, at: position)
            case 4..<7 where !expected.isEmpty:
                let position = Int.random(in: 0..<expected.count, using: &random)
                #expect(chunked.remove(at: position) == expected.remove(at: position))
            case 7 where !expected.isEmpty:
                let position = Int.random(in: 0..<expected.count, using: &random)
                let element = Int64.random(in: 0..<100, using: &random)
                expected[position] = element
                chunked[position] = element
            default:
                let lower = Int.random(in: 0...expected.count, using: &random)
                let range = lower..<Int.random(in: lower...expected.count, using: &random)
                let element = Int64.random(in: 0..<100, using: &random)
                #expect(chunked.position(of: element, in: range) == expected[range].firstIndex(of: element), "step \(step)")
                #expect(chunked.position(of: element) == expected.firstIndex(of: element))
                #expect(chunked.elements(in: range) == Array(expected[range]))
            }
            #expect(chunked.count == expected.count)
            if step % 50 == 0 {
                #expect(Array(chunked) == expected, "iteration, step \(step)")
                #expect(chunked.indices.map { chunked[$0] } == expected, "subscripts, step \(step)")
            }
        }
        #expect(Array(chunked) == expected)
    }

    @Test func emptiedAndRefilled_staysConsistent() {
        var chunked = ChunkedArray([1, 2, 3], chunkCapacity: 2)
        while !chunked.isEmpty { chunked.remove(at: 0) }
        #expect(chunked.position(of: 1) == nil)
        #expect(chunked.elements(in: 0..<0).isEmpty)
        for value in 0..<5 { chunked.insert(value, at: chunked.count) }
        #expect(Array(chunked) == [0, 1, 2, 3, 4])
        chunked.insert(9, at: 0)
        #expect(Array(chunked) == [9, 0, 1, 2, 3, 4])
    }

    @Test func membershipFilter_neverMissesAndRarelyGuesses() {
        var random = SplitMix64(seed: 42)
        let members = Set((0..<4096).map { _ in Int64.random(in: 1...Int64.max, using: &random) })
        var filter = MembershipFilter(members, capacity: 4096)
        #expect(members.allSatisfy { filter.mayContain($0) })
        let strangers = (0..<100_000).map { _ in Int64.random(in: 1...Int64.max, using: &random) }.filter { !members.contains($0) }
        let falseMaybes = strangers.count { filter.mayContain($0) }
        // 16 bits and 4 probes per element in one cache line: about 0.3% (0.24% unblocked).
        #expect(falseMaybes < strangers.count / 200, "\(falseMaybes) false maybes in \(strangers.count)")
        // Elements added later are found too; removed ones count toward a rebuild.
        filter.insert(Int64(-7))
        filter.noteRemoval()
        #expect(filter.mayContain(Int64(-7)) && filter.staleCount == 1)
    }
}
