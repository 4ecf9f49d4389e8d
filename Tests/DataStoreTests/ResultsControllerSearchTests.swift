@testable import DataStore
import Foundation
import GeneratedFailedBanks
import Testing

/// How a results controller places a change in a long list: it finds the key chunk among the
/// chunks' first rows, whose sort values it read with the list in one query, and then reads only
/// rows of that chunk. Small chunks make a short list long.
@Suite struct ResultsControllerSearchTests {
    /// The rows a change reads from the store, by chunk length: a list of 2,000 banks in 125
    /// chunks of 16 reads the rows of one chunk's search, where one chunk of 4,096 reads a whole
    /// binary search's worth.
    @Test(arguments: [16, 4096])
    func placingAChange_readsTheRowsOfOneChunk(chunkCapacity: Int) throws {
        let store = try PersistentStore.inMemory(model: TestStores.failedBanks)
        try FetchedResultsControllerTests.banks(2_000, store: store)
        let context = store.newContext()
        let lines = LineCollector()
        store.logSQL(level: 1) { lines.append($0) }
        var request = FetchedResultsControllerTests.bankRequest()
        request.sortDescriptors.removeFirst()
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        controller.keyChunkCapacity = chunkCapacity
        let delegate = RecordingDelegate<FailedBankInfo>()
        controller.delegate = delegate
        try controller.performFetch()
        let join = "FROM ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t0.ZDETAILS = t1.Z_PK"
        var opening = [
            "DataStore: sql: SELECT 0, t0.Z_PK \(join) ORDER BY t1.ZCLOSEDATE DESC, t0.Z_PK",
        ]
        if chunkCapacity == 16 {
            let fences = Array(repeating: "?", count: 125).joined(separator: ",")
            opening.append("DataStore: sql: SELECT t0.Z_PK, t1.ZCLOSEDATE \(join) WHERE t0.Z_PK IN (\(fences))")
        }
        #expect(lines.statements == opening)

        lines.removeAll()
        let bank = FailedBankInfo(context: context)
        bank.name = "New"
        bank.details = FailedBankDetails(context: context)
        bank.details?.closeDate = Date(timeIntervalSinceReferenceDate: 1_000.5 * 86_400)
        context.processPendingChanges()
        // Each row read is a bank and its details: two statements.
        let rowsRead = lines.statements.count / 2
        #expect(chunkCapacity == 16 ? rowsRead <= 5 : rowsRead >= 11, "\(rowsRead) rows read")
        #expect(delegate.changes.map(\.description) == ["insert [0, 999]"])
    }
}
