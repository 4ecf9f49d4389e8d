import DataStore
import Foundation
import PostgreSQLStore

/// Made-up failed banks, the same every run, for a database that has none yet: written to a
/// SQLite store, then copied to PostgreSQL as `datamodel-gen copy-store` copies an app's store.
enum SampleBanks {
    private static let states = ["AL", "AZ", "CA", "CO", "FL", "GA", "IL", "KS", "MI", "NY", "OH", "TX", "WA"]
    private static let names = ["First Citizens Bank", "Heritage Savings Bank", "Pioneer National Bank", "Valley Bank & Trust", "Summit Federal Savings"]
    private static let cities = ["Springfield", "Riverside", "Fairview", "Madison", "Georgetown", "Salem"]

    /// The store in the PostgreSQL database at `url`; a database without one first gets
    /// `sampleBanks` made-up banks, when given.
    static func openStore(_ url: String, sampleBanks: Int?) async throws -> PersistentStore {
        do {
            return try await PersistentStore.readOnly(postgreSQL: url, model: FailedBanks.model)
        } catch {
            guard case .notAStore = error, sampleBanks != nil else { throw error }
        }
        let sampleBanks = sampleBanks ?? 0
        try await copy(sampleBanks, to: url)
        print("Put \(sampleBanks) sample banks in \(url)")
        return try await PersistentStore.readOnly(postgreSQL: url, model: FailedBanks.model)
    }

    /// Puts `count` banks in the empty PostgreSQL database at `url`.
    static func copy(_ count: Int, to url: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("FailedBanks-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let context = try PersistentStore(url: file, model: FailedBanks.model).newContext()
        for index in 0..<count {
            let bank = FailedBankInfo(context: context)
            bank.name = names[index % names.count]
            bank.city = cities[index / names.count % cities.count]
            bank.state = states[index * 7 % states.count]
            let details = FailedBankDetails(context: context)
            details.closeDate = Date(timeIntervalSinceReferenceDate: Double(index * 37 % 4_380) * 86_400)
            details.updatedDate = details.closeDate
            details.zip = Int32(10_000 + index * 131 % 89_999)
            bank.details = details
        }
        try await context.save()
        try await StoreCopier(model: FailedBanks.model.model).copy(from: .sqlite(file), to: StoreLocation(url))
    }
}
