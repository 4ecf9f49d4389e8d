import DataModelParser
import DataStore
import Foundation

/// Saves FailedBanks objects in a loop until killed, printing `ready` once the store is open and
/// `saved <n>` after each save returns. Every save is one transaction whose effect depends only on
/// its number, so the store's state after save n is known.
func saveUntilKilled(store path: String, model modelPath: String) throws -> Never {
    let model = try ModelLoader().load(modelPath).model
    let store = try PersistentStore(url: URL(fileURLWithPath: path), model: ManagedObjectModel(model: model))
    let context = store.newContext()
    // The ledger's city is the number of the last committed save.
    var ledger: ManagedObject?
    var banksBySave: [Int: [ManagedObject]] = [:]
    for bank in try context.fetch(FetchRequest<ManagedObject>(entityName: "FailedBankInfo")) {
        let name = bank.value(forKey: "name") as? String ?? ""
        if name == "ledger" {
            ledger = bank
        } else if let save = Int(name.split(separator: " ")[1]) {
            banksBySave[save, default: []].append(bank)
        }
    }
    var save = Int(ledger?.value(forKey: "city") as? String ?? "0") ?? 0
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    while true {
        save += 1
        if ledger == nil {
            ledger = try context.insertObject(entityName: "FailedBankInfo")
            try ledger?.setValue("ledger", forKey: "name")
        }
        try ledger?.setValue(String(save), forKey: "city")
        // Every tenth save is large, so kills also land inside long transactions.
        let count = save % 10 == 0 ? 200 : save % 5 + 1
        for index in 0..<count {
            let bank = try context.insertObject(entityName: "FailedBankInfo")
            try bank.setValue("save \(save) bank \(index)", forKey: "name")
            try bank.setValue(["CA", "NY", "TX"][save % 3], forKey: "state")
            let details = try context.insertObject(entityName: "FailedBankDetails")
            try details.setValue(Int64(save), forKey: "zip")
            try details.setValue(Date(timeIntervalSinceReferenceDate: Double(save)), forKey: "closeDate")
            try bank.setValue(details, forKey: "details")
            banksBySave[save, default: []].append(bank)
        }
        // Only the last four saves' banks stay; older ones are deleted (their details cascade).
        for bank in banksBySave.removeValue(forKey: save - 4) ?? [] { context.delete(bank) }
        try context.save()
        FileHandle.standardOutput.write(Data("saved \(save)\n".utf8))
    }
}
