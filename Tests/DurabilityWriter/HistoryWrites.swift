import DataModelParser
import DataStore
import Foundation

/// Writes a known sequence to a store with persistent history, as the author `writer`, for the
/// history tests' other process: a save inserting three banks with details, a save updating one
/// bank's state, a save deleting another (its details cascade), and a batch update of every
/// bank's city. Prints `done`.
func writeHistory(store path: String, model modelPath: String) throws {
    let model = try ModelLoader().load(modelPath).model
    let store = try PersistentStore(url: URL(fileURLWithPath: path), model: ManagedObjectModel(model: model), history: .enabled)
    let context = store.newContext()
    context.transactionAuthor = "writer"
    var banks: [ManagedObject] = []
    for index in 0..<3 {
        let bank = try context.insertObject(entityName: "FailedBankInfo")
        try bank.setValue("Bank \(index)", forKey: "name")
        try bank.setValue("CA", forKey: "state")
        let details = try context.insertObject(entityName: "FailedBankDetails")
        try details.setValue(Int64(index), forKey: "zip")
        try bank.setValue(details, forKey: "details")
        banks.append(bank)
    }
    try context.save()
    try banks[0].setValue("TX", forKey: "state")
    try context.save()
    context.delete(banks[2])
    try context.save()
    var request = BatchUpdateRequest<ManagedObject>(entityName: "FailedBankInfo")
    request.propertiesToUpdate = ["city": .value(.string("Springfield"))]
    try context.execute(request)
    print("done")
}
