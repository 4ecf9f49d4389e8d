import DataStore

/// Prints every delegate callback on one line: the change type and its index paths.
final class ChangePrinter: FetchedResultsControllerDelegate {
    typealias Object = FailedBankInfo

    func controllerWillChangeContent(_ controller: FetchedResultsController<FailedBankInfo>) {
        print("delegate: will change content")
    }

    func controller(_ controller: FetchedResultsController<FailedBankInfo>, didChange section: FetchedResultsSectionChange) {
        print("delegate: \(section)")
    }

    func controller(_ controller: FetchedResultsController<FailedBankInfo>, didChange change: FetchedResultsChange) {
        print("delegate: \(change)")
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<FailedBankInfo>) {
        print("delegate: did change content")
    }
}
