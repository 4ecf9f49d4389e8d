/// What a delegate is told about an edit of the visible list: section inserts and deletes, then
/// object deletes, inserts, moves and updates, with table-view index paths.
struct ChangeReport {
    var sections: [FetchedResultsSectionChange] = []
    var objects: [FetchedResultsChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// An object both removed and inserted stays put (an update, when it changed) when it keeps
    /// its section, sits between the same unmoved neighbours as before, and keeps its order among
    /// the other objects that do; otherwise it moved. Cost: the edit's size times its logarithm.
    init(_ edit: ListEdit, old: SectionLayout, new: SectionLayout, objectID: (Int64, Int32) -> ObjectID) {
        let oldNames = Set(old.sections.map(\.name)), newNames = Set(new.sections.map(\.name))
        for (index, section) in old.sections.enumerated() where !newNames.contains(section.name) {
            sections.append(FetchedResultsSectionChange(type: .delete, name: section.name, sectionIndex: index))
        }
        for (index, section) in new.sections.enumerated() where !oldNames.contains(section.name) {
            sections.append(FetchedResultsSectionChange(type: .insert, name: section.name, sectionIndex: index))
        }

        var newIndexByKey: [Int64: Int] = [:]
        for entry in edit.inserted { newIndexByKey[entry.key] = entry.index }
        let removedIndices = edit.removed.map(\.index), insertedIndices = edit.inserted.map(\.index)
        var pairs: [(entry: ListEdit.Entry, new: Int)] = []
        var deletes: [FetchedResultsChange] = [], inserts: [FetchedResultsChange] = []
        for entry in edit.removed {
            if let newIndex = newIndexByKey.removeValue(forKey: entry.key) {
                pairs.append((entry, newIndex))
            } else {
                deletes.append(FetchedResultsChange(
                    type: .delete, objectID: objectID(entry.key, entry.entityNumber), indexPath: old.indexPath(ofVisible: entry.index), newIndexPath: nil))
            }
        }
        for entry in edit.inserted where newIndexByKey[entry.key] != nil {
            inserts.append(FetchedResultsChange(
                type: .insert, objectID: objectID(entry.key, entry.entityNumber), indexPath: nil, newIndexPath: new.indexPath(ofVisible: entry.index)))
        }

        // Unmoved rows before a row: its index minus the removed (old) or inserted (new) rows before it.
        let candidates = pairs.indices.filter { position in
            let (entry, newIndex) = pairs[position]
            return entry.index - Self.count(removedIndices, below: entry.index) == newIndex - Self.count(insertedIndices, below: newIndex)
                && old.sectionName(ofVisible: entry.index) == new.sectionName(ofVisible: newIndex)
        }
        var stays = Set<Int>()
        for position in ListEdit.longestIncreasingRun(candidates.map { pairs[$0].new }) { stays.insert(candidates[position]) }

        var moves: [FetchedResultsChange] = [], updates: [FetchedResultsChange] = []
        for (position, (entry, newIndex)) in pairs.enumerated() {
            let id = objectID(entry.key, entry.entityNumber)
            if !stays.contains(position) {
                moves.append(FetchedResultsChange(
                    type: .move, objectID: id, indexPath: old.indexPath(ofVisible: entry.index), newIndexPath: new.indexPath(ofVisible: newIndex)))
            } else if edit.updated.contains(entry.key) {
                updates.append(FetchedResultsChange(type: .update, objectID: id, indexPath: old.indexPath(ofVisible: entry.index), newIndexPath: nil))
            }
        }
        for entry in edit.updatedInPlace {
            updates.append(FetchedResultsChange(
                type: .update, objectID: objectID(entry.key, entry.entityNumber), indexPath: old.indexPath(ofVisible: entry.index), newIndexPath: nil))
        }
        objects = deletes + inserts.sorted { $0.newIndexPath! < $1.newIndexPath! } + moves + updates.sorted { $0.indexPath! < $1.indexPath! }
    }

    /// The number of `sorted` values below `value`.
    private static func count(_ sorted: [Int], below value: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
