// The Failed Banks tutorial with DataStore's FetchedResultsController.
//
//     swift run --package-path Examples/FailedBanks failed-banks [--script] [--banks N] [--store PATH]
//
// Imports N made-up banks (default 3,000) into a new store, then lists them in sections by state,
// latest closing first, 20 rows per batch, printing the SQL the store runs and every delegate
// callback. `--script` plays a fixed tour (what CI runs); without it, commands come from the
// terminal.
import DataStore
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let bankCount = option("--banks").flatMap(Int.init) ?? 3_000
let storeURL = option("--store").map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("FailedBanks-\(UUID().uuidString).sqlite")
let scripted = arguments.contains("--script")
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: failed-banks [--script] [--banks N] [--store PATH]")
    exit(0)
}

do {
    try? FileManager.default.removeItem(at: storeURL)
    let store = try PersistentStore(url: storeURL, model: FailedBanks.model)
    let context = store.newContext()
    var importer = BankImporter()
    try importer.importBanks(bankCount, into: context)
    print("Imported \(bankCount) banks into \(storeURL.path)")
    FetchedResultsController<FailedBankInfo>.deleteCache(withName: "FailedBanks")

    store.logSQL(level: 1) { print($0) }
    let list = BankList(context: context)
    let printer = ChangePrinter()
    list.controller.delegate = printer
    if scripted {
        var tour = Tour(list: list, context: context, importer: importer)
        try tour.run()
    } else {
        var pager = Pager(list: list, context: context, importer: importer)
        try pager.run()
    }
} catch {
    FileHandle.standardError.write(Data("failed-banks: error: \(error)\n".utf8))
    exit(1)
}
