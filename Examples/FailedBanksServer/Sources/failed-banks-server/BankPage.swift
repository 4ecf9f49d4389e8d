import DataStore
import Foundation
import Hummingbird

/// One page of the Failed Banks list — banks in sections by state, latest closing first — as the
/// service sends it.
struct BankPage: ResponseEncodable, Codable {
    struct Bank: Codable {
        var name: String
        var city: String
        var closeDate: String?
    }

    struct Section: Codable {
        var state: String
        var banks: [Bank]
    }

    var page: Int
    var pageSize: Int
    /// The banks of the whole list.
    var bankCount: Int
    var sections: [Section]
}

extension BankPage {
    /// Page `page` of `pageSize` banks, read in a new context of `store`, never blocking the
    /// request's task: a results controller lists the banks (their keys and the section lengths),
    /// and the page's banks and their details are read in one query each.
    static func read(page: Int, pageSize: Int, from store: PersistentStore) async throws -> BankPage {
        let context = store.newContext()
        var request = FailedBankInfo.fetchRequest()
        request.sortDescriptors = [ObjectSortDescriptor("state"), ObjectSortDescriptor("details.closeDate", ascending: false)]
        request.fetchBatchSize = pageSize
        let controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "state")
        try await controller.performFetch()
        let list = controller.snapshot

        // The page's banks, section by section, as faults; then their rows, and their details'.
        var first = page * pageSize
        var sections: [(state: String, banks: [FailedBankInfo])] = []
        var count = 0
        for section in list.sections where count < pageSize {
            guard first < section.itemIdentifiers.count else {
                first -= section.itemIdentifiers.count
                continue
            }
            let ids = section.itemIdentifiers[first..<min(section.itemIdentifiers.count, first + pageSize - count)]
            sections.append((section.name, ids.map { context.object(with: $0) as! FailedBankInfo }))
            count += ids.count
            first = 0
        }
        let banks = sections.flatMap(\.banks)
        try await context.fulfillFaults(of: banks)
        try await context.fulfillFaults(of: banks.compactMap(\.details))

        return BankPage(
            page: page, pageSize: pageSize, bankCount: list.numberOfItems,
            sections: sections.map { section in
                Section(state: section.state, banks: section.banks.map { bank in
                    Bank(
                        name: bank.name ?? "", city: bank.city ?? "",
                        closeDate: bank.details?.closeDate?.formatted(.iso8601.year().month().day()))
                })
            })
    }
}
