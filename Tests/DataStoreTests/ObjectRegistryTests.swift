@testable import DataStore
import Foundation
import TestSupport
import Testing

/// A context's registry of objects by row, in pages of consecutive keys with a cached page for
/// lookups and one for removals: checked against a dictionary under random operations that fill,
/// empty and reuse pages, with temporary and permanent keys of two entities.
@Suite struct ObjectRegistryTests {
    @Test func randomInsertsAndRemovals_matchADictionary() throws {
        let store = try TestStores.newStore(TestStores.library)
        var random = SplitMix64(seed: 20_261_123)
        var registry = ObjectRegistry()
        var expected: [ObjectID.Row: ManagedObject] = [:]
        let entities = [1, 2]
        // Keys in runs within a few pages, so that pages fill, empty and come back.
        func randomRow() -> ObjectID.Row {
            let key = Int64.random(in: 0..<1_200, using: &random)
            let entity = entities.randomElement(using: &random) ?? 1
            return ObjectID.Row(entityNumber: entity, key: Bool.random(using: &random) ? .permanent(key) : .temporary(UInt64(key)))
        }
        func object(for row: ObjectID.Row) -> ManagedObject {
            ManagedObject(ObjectCreation(objectID: store.objectID(key: row.key, entityNumber: row.entityNumber), context: nil))
        }
        for step in 0..<5_000 {
            let row = randomRow()
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                let new = object(for: row)
                registry.insert(new, for: row)
                expected[row] = new
            case 3:
                // A run of consecutive keys, as a fetch registers them, through the slot path.
                let start = Int64.random(in: 0..<1_000, using: &random)
                for key in start..<start + 40 {
                    let run = ObjectID.Row(entityNumber: row.entityNumber, key: .permanent(key))
                    let slot = registry.slot(for: run)
                    #expect(registry[slot: slot] === expected[run])
                    if registry[slot: slot] == nil {
                        let new = object(for: run)
                        registry.insert(new, at: slot)
                        expected[run] = new
                    }
                }
            case 4..<7:
                registry.remove(row)
                expected[row] = nil
            case 7:
                // Removing on behalf of another object leaves the registered one.
                let other = object(for: row)
                registry.remove(row, only: Unmanaged.passUnretained(other).toOpaque())
            case 8:
                // A run removed in order, as objects of a fetch go, emptying pages; then another
                // entity's run, on pages that may reuse the emptied ones; then the first run's
                // rows again, which are gone and must stay gone without touching the new run.
                // Whole pages (256 keys each), so that the last one removed empties too.
                let start = 256 * Int64.random(in: 0..<3, using: &random)
                let removed = (start..<start + 512).map { ObjectID.Row(entityNumber: row.entityNumber, key: .permanent($0)) }
                let first = object(for: removed[0])
                registry.insert(first, for: removed[0])
                for run in removed {
                    registry.remove(run)
                    expected[run] = nil
                }
                // Back on the page just emptied.
                registry.insert(first, for: removed[0])
                expected[removed[0]] = first
                let other = entities.first { $0 != row.entityNumber } ?? 1
                for key in start..<start + 512 {
                    let run = ObjectID.Row(entityNumber: other, key: .permanent(key))
                    let new = object(for: run)
                    registry.insert(new, for: run)
                    expected[run] = new
                }
                for run in removed.dropFirst().reversed() { registry.remove(run) }
                for key in start..<start + 512 {
                    for entity in entities {
                        let run = ObjectID.Row(entityNumber: entity, key: .permanent(key))
                        #expect(registry[run] === expected[run], "step \(step)")
                    }
                }
            default:
                #expect(registry[row] === expected[row], "step \(step)")
            }
        }
        for (row, object) in expected { #expect(registry[row] === object) }
        #expect(Set(registry.objects.map(ObjectIdentifier.init)) == Set(expected.values.map(ObjectIdentifier.init)))
    }
}
