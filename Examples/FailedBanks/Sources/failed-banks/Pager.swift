import DataStore
import Foundation

/// Paging from the terminal: one command per line.
struct Pager {
    let list: BankList
    let context: ObjectContext
    var importer: BankImporter
    private var firstRow = 0
    private let pageSize = 20

    init(list: BankList, context: ObjectContext, importer: BankImporter) {
        self.list = list
        self.context = context
        self.importer = importer
    }

    static let help = """
        n next page · p previous page · t LETTER jump to an index title · i insert a bank
        d ROW delete · c ROW change the close date · r ROW rename · s ROW STATE move to a state · q quit
        """

    mutating func run() throws {
        try list.controller.performFetch()
        print(Self.help)
        show()
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard let command = words.first else { continue }
            let row = words.count > 1 ? Int(words[1]) : nil
            switch command {
            case "q": return
            case "n": firstRow = min(firstRow + pageSize, max(0, list.rowCount - pageSize))
            case "p": firstRow = max(0, firstRow - pageSize)
            case "t":
                let controller = list.controller
                let title = words.count > 1 ? words[1].uppercased() : ""
                let section = controller.section(forSectionIndexTitle: title, at: controller.sectionIndexTitles.firstIndex(of: title) ?? 0)
                firstRow = (0..<section).reduce(0) { $0 + (controller.sections?[$1].numberOfObjects ?? 0) }
            case "i":
                importer.insertBank(into: context, closeDate: Date())
                try context.save()
            case "d", "c", "r", "s":
                guard let row, let path = list.indexPath(ofRow: row) else {
                    print("which row? \(Self.help)")
                    continue
                }
                let bank = list.controller.object(at: path)
                switch command {
                case "d": context.delete(bank)
                case "c": bank.details?.closeDate = Date(timeIntervalSinceReferenceDate: Double.random(in: 0...(12 * 365 * 86_400)))
                case "r": bank.name = "Renamed \(bank.name ?? "bank")"
                default: bank.state = words.count > 2 ? words[2].uppercased() : bank.state
                }
                try context.save()
            default:
                print(Self.help)
            }
            show()
        }
    }

    private func show() {
        print("rows \(firstRow)..<\(min(firstRow + pageSize, list.rowCount)) of \(list.rowCount)")
        list.printRows(firstRow..<firstRow + pageSize)
    }
}
