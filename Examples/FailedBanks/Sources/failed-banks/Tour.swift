import DataStore
import Foundation

/// The scripted tour: open the list, page, jump by index title, then edit so that the delegate
/// reports an insert, a delete, a move, an update and a move into a new section — and an edit
/// screen working in a child context, cancelled once and saved once.
struct Tour {
    let list: BankList
    let context: ObjectContext
    var importer: BankImporter

    mutating func run() throws {
        let controller = list.controller
        step("Open the list: the keys in order and the banks per state, nothing else")
        try controller.performFetch()
        let sections = controller.sections ?? []
        print("\(list.rowCount) banks in \(sections.count) states; index: \(controller.sectionIndexTitles.joined(separator: " "))")

        step("Page 1: reading a row loads its batch of 20")
        list.printRows(0..<20)
        step("Page 2")
        list.printRows(20..<40)

        step("Jump to index title \"T\"")
        let texas = controller.section(forSectionIndexTitle: "T", at: controller.sectionIndexTitles.firstIndex(of: "T") ?? 0)
        let start = (0..<texas).reduce(0) { $0 + sections[$1].numberOfObjects }
        list.printRows(start..<start + 5)

        step("Insert a bank that closed today, in Alabama: one insert at the top of section 0")
        importer.insertBank(into: context, state: "AL", closeDate: Date())
        try context.save()

        step("Delete the second Alabama bank")
        context.delete(controller.object(at: ResultsIndexPath(item: 1, section: 0)))
        try context.save()

        step("Change the close date of Arizona's latest failure to the earliest: a move inside its section")
        let arizona = controller.object(at: ResultsIndexPath(item: 0, section: 1))
        arizona.details?.closeDate = Date(timeIntervalSinceReferenceDate: -86_400)
        try context.save()

        step("Rename the new Alabama bank: an update")
        let newest = controller.object(at: ResultsIndexPath(item: 0, section: 0))
        newest.name = "Last Chance Bank"
        try context.save()

        try editScreen(controller)

        step("Move a Texas bank to Wyoming: a new section and a move into it")
        controller.object(at: ResultsIndexPath(item: 0, section: texas)).state = "WY"
        try context.save()
        print("\(list.rowCount) banks in \(controller.sections?.count ?? 0) states; index: \(controller.sectionIndexTitles.joined(separator: " "))")
        list.printRows(list.rowCount - 2..<list.rowCount)
    }

    /// An edit screen works on a child of the list's context: Cancel throws the child away, Save
    /// moves its changes into the list's context (one update for the list), whose save writes them.
    private func editScreen(_ controller: FetchedResultsController<FailedBankInfo>) throws {
        let shown = controller.object(at: ResultsIndexPath(item: 2, section: 0))

        step("Edit screen: rename a bank in a child context, then Cancel")
        do {
            let editor = context.newChildContext()
            let bank = try editor.existingObject(with: shown.objectID) as! FailedBankInfo
            bank.name = "Renamed, then cancelled"
        }
        print("edit screen: cancelled; the list still shows \(shown.name ?? "?"), unsaved changes: \(context.hasChanges)")

        step("Edit screen: rename it again, then Save: an update in the list, then the store")
        let editor = context.newChildContext()
        let bank = try editor.existingObject(with: shown.objectID) as! FailedBankInfo
        bank.name = "Renamed in the edit screen"
        try editor.save()
        print("edit screen: saved into the list's context; the list shows \(shown.name ?? "?"), unsaved changes: \(context.hasChanges)")
        try context.save()
        print("edit screen: the list's context saved; unsaved changes: \(context.hasChanges)")
    }

    private func step(_ title: String) {
        print("\n== \(title)")
    }
}
