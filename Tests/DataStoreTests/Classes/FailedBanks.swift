// The classes the generator is to produce for Models/FailedBanks.xcdatamodeld.
import DataStore
import Foundation

/// A `FailedBankDetails` of the FailedBanks model.
public final class FailedBankDetails: ManagedObject {
    public override class var entityName: String { "FailedBankDetails" }

    public static let closeDate = AttributeKey<FailedBankDetails, Date?>("closeDate", slot: 0)
    public static let updatedDate = AttributeKey<FailedBankDetails, Date?>("updatedDate", slot: 1)
    public static let zip = AttributeKey<FailedBankDetails, Int32>("zip", slot: 2)
    public static let info = ToOneKey<FailedBankDetails, FailedBankInfo>("info", slot: 0)

    public var closeDate: Date? {
        get { self[FailedBankDetails.closeDate] }
        set { self[FailedBankDetails.closeDate] = newValue }
    }

    public var updatedDate: Date? {
        get { self[FailedBankDetails.updatedDate] }
        set { self[FailedBankDetails.updatedDate] = newValue }
    }

    public var zip: Int32 {
        get { self[FailedBankDetails.zip] }
        set { self[FailedBankDetails.zip] = newValue }
    }

    public var info: FailedBankInfo? {
        get { self[FailedBankDetails.info] }
        set { self[FailedBankDetails.info] = newValue }
    }
}

/// A `FailedBankInfo` of the FailedBanks model.
public final class FailedBankInfo: ManagedObject {
    public override class var entityName: String { "FailedBankInfo" }

    public static let city = AttributeKey<FailedBankInfo, String?>("city", slot: 0)
    public static let name = AttributeKey<FailedBankInfo, String?>("name", slot: 1)
    public static let state = AttributeKey<FailedBankInfo, String?>("state", slot: 2)
    public static let details = ToOneKey<FailedBankInfo, FailedBankDetails>("details", slot: 0)

    public var city: String? {
        get { self[FailedBankInfo.city] }
        set { self[FailedBankInfo.city] = newValue }
    }

    public var name: String? {
        get { self[FailedBankInfo.name] }
        set { self[FailedBankInfo.name] = newValue }
    }

    public var state: String? {
        get { self[FailedBankInfo.state] }
        set { self[FailedBankInfo.state] = newValue }
    }

    public var details: FailedBankDetails? {
        get { self[FailedBankInfo.details] }
        set { self[FailedBankInfo.details] = newValue }
    }
}
