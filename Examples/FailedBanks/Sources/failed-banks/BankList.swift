import DataStore
import Foundation

/// The tutorial's list: banks in sections by state, latest closing first, 20 rows per batch.
struct BankList {
    let controller: FetchedResultsController<FailedBankInfo>

    init(context: ObjectContext) {
        var request = FailedBankInfo.fetchRequest()
        request.sortDescriptors = [ObjectSortDescriptor("state"), ObjectSortDescriptor("details.closeDate", ascending: false)]
        request.fetchBatchSize = 20
        controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "state", cacheName: "FailedBanks")
    }

    var rowCount: Int { controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? 0 }

    /// The index path of the `row`th row counted across sections.
    func indexPath(ofRow row: Int) -> ResultsIndexPath? {
        var remaining = row
        for (index, section) in (controller.sections ?? []).enumerated() {
            if remaining < section.numberOfObjects { return ResultsIndexPath(item: remaining, section: index) }
            remaining -= section.numberOfObjects
        }
        return nil
    }

    /// Prints rows `rows`, with a header where a section starts.
    func printRows(_ rows: Range<Int>) {
        let sections = controller.sections ?? []
        for row in rows {
            guard let path = indexPath(ofRow: row) else { break }
            if path.item == 0 || row == rows.lowerBound {
                print("  — \(sections[path.section].name) (\(sections[path.section].numberOfObjects) banks)")
            }
            print("    \(path)  \(Self.line(for: controller.object(at: path)))")
        }
    }

    static func line(for bank: FailedBankInfo) -> String {
        let date = bank.details?.closeDate.map { $0.formatted(.iso8601.year().month().day()) } ?? "open"
        return "\(bank.name ?? "?"), \(bank.city ?? "?") — closed \(date)"
    }
}
