import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// A fuzzer for the predicate language: valid formats from `RandomPredicate`, mutated byte by byte
/// and piece by piece (cut, doubled, spliced, control and non-ASCII characters, stray syntax), fed
/// to the parser with their arguments. No input may crash; an input that parses must print a
/// format that parses back to the same predicate (unless it holds objects), and must fetch in SQL exactly what it matches in
/// memory or fail with a typed error.
///
/// 20,000 inputs by default; `DATASTORE_FUZZ_INPUTS=1000000 swift test --filter PredicateFuzzTests`
/// for the full run. `DATASTORE_FUZZ_SEED` replays a run.
@Suite struct PredicateFuzzTests {
    static let inputs = ProcessInfo.processInfo.environment["DATASTORE_FUZZ_INPUTS"].flatMap(Int.init) ?? 20_000
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_FUZZ_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    static let pieces = [
        "(", ")", "{", "}", "'", "\"", "%@", "%K", "%d", "%f", "%", "$x", "$", "@count", "@sum.", "@", "#", ".", ",", "[cd]", "[",
        "]", "==", "=", "<", ">=", "!", "&&", "||", "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SUBQUERY(", "CAST(", "BETWEEN",
        "IN", "LIKE", "MATCHES", "CONTAINS", "nil", "SELF", "TRUEPREDICATE", "title", "author.name", "books", "5", "-", "1e",
        "1e999", "0x", "0xFFFFFFFFFFFFFFFFFF", "99999999999999999999", ".5", "\\", "\\u", "\\u00", "\u{0}", "\u{7}", "é",
        "e\u{301}", "日本", "\u{FEFF}", "\u{1F600}", " ", "\t", "\n",
    ]

    @Test func mutatedFormats_neverCrashAndMeanTheSameInSQLAndMemory() throws {
        var random = SplitMix64(seed: Self.seed)
        let store = try TestStores.newStore(TestStores.library)
        let objects = try RandomLibrary.populate(store, &random)
        let context = store.newContext()
        let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
        var generator = RandomPredicate(objects: objects, random: random)
        var parsed = 0, fetched = 0
        for index in 0..<Self.inputs {
            let (valid, arguments) = generator.predicate(depth: 2)
            let format = Self.mutate(valid, &generator.random)
            let label = "input \(index), seed \(Self.seed): \(format.debugDescription) \(arguments)"
            guard let predicate = try? ObjectPredicate(format: format, arguments: arguments) else { continue }
            parsed += 1
            let printed = predicate.description
            // Objects print as their URI, which only their store can read back; a fetch prints for
            // reading, as Core Data's does, with no text of its own in the syntax.
            if !printed.contains("x-coredata://") && !printed.contains("FETCH(") {
                let reparsed = Result { try ObjectPredicate(format: printed) }
                try #require((try? reparsed.get()) == predicate, "\(label)\nprinted: \(printed.debugDescription)\nreparsed: \(reparsed)")
                // Foundation's text reads back too (its Booleans as numbers).
                #expect(throws: Never.self, "\(label)") { try ObjectPredicate(format: predicate.predicateFormat) }
            }

            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = predicate
            // Unknown keys, wrong types and unsubstituted variables are typed errors; anything else
            // must agree with memory.
            guard let fromSQL = try? context.fetch(request) else { continue }
            let inMemory = try books.filter { try predicate.evaluate(with: $0) }
            fetched += 1
            try #require(Set(fromSQL.map(\.objectID)) == Set(inMemory.map(\.objectID)), "\(label)\nSQL: \(fromSQL.count)  memory: \(inMemory.count)")
        }
        // Mutations must leave enough inputs valid that parsing and fetching are exercised.
        #expect(parsed > Self.inputs / 10, "only \(parsed) of \(Self.inputs) inputs parsed")
        #expect(fetched > Self.inputs / 20, "only \(fetched) of \(Self.inputs) inputs fetched")
    }

    /// `format` with one to three random edits.
    static func mutate(_ format: String, _ random: inout SplitMix64) -> String {
        var characters = Array(format)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = Int.random(in: 0...characters.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: characters.insert(contentsOf: pieces.randomElement(using: &random)!, at: position)
            case 1 where position < characters.count:
                characters.removeSubrange(position..<min(characters.count, position + Int.random(in: 1...4, using: &random)))
            case 2 where position < characters.count:
                let end = min(characters.count, position + Int.random(in: 1...12, using: &random))
                characters.insert(contentsOf: characters[position..<end], at: Int.random(in: 0...characters.count, using: &random))
            case 3 where position < characters.count:
                characters[position] = Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
            case 4: characters = Array(characters.prefix(position))
            default: break  // the unmutated format now and then: the round trip of valid input counts too
            }
        }
        return String(characters)
    }
}
