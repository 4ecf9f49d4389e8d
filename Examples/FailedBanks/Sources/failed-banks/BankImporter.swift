import DataStore
import Foundation

/// Made-up failed banks, the same every run: names, cities and states from short lists, close
/// dates spread over twelve years.
struct BankImporter {
    static let states = ["AL", "AZ", "CA", "CO", "FL", "GA", "IL", "KS", "MI", "MN", "MO", "NV", "NJ", "NY", "OH", "OR", "PA", "TX", "UT", "WA"]
    private static let words = ["First", "Citizens", "Heritage", "Pioneer", "Valley", "Community", "Security", "Peoples", "Summit", "Frontier", "Union", "Colonial"]
    private static let kinds = ["Bank", "Savings Bank", "Bank & Trust", "National Bank", "Federal Savings"]
    private static let cities = ["Springfield", "Riverside", "Fairview", "Madison", "Georgetown", "Franklin", "Clinton", "Salem", "Greenville", "Bristol"]

    /// A linear congruential generator: enough variety, and the same sequence every run.
    private var seed: UInt64 = 0x2009_0101

    private mutating func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }

    /// Inserts `count` banks with their details and saves once.
    mutating func importBanks(_ count: Int, into context: ObjectContext) throws {
        for _ in 0..<count { insertBank(into: context) }
        try context.save()
    }

    @discardableResult
    mutating func insertBank(into context: ObjectContext, state: String? = nil, closeDate: Date? = nil) -> FailedBankInfo {
        let bank = FailedBankInfo(context: context)
        let first = next(Self.words.count), second = (first + 1 + next(Self.words.count - 1)) % Self.words.count
        bank.name = "\(Self.words[first]) \(Self.words[second]) \(Self.kinds[next(Self.kinds.count)])"
        bank.city = Self.cities[next(Self.cities.count)]
        bank.state = state ?? Self.states[next(Self.states.count)]
        let details = FailedBankDetails(context: context)
        details.closeDate = closeDate ?? Date(timeIntervalSinceReferenceDate: Double(next(12 * 365)) * 86_400)
        details.updatedDate = details.closeDate
        details.zip = Int32(10_000 + next(89_999))
        bank.details = details
        return bank
    }
}
