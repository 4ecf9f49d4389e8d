import StoreSchema

/// The names of the persistent history's tables and columns, as statements use them:
/// `\(.ATRANSACTION)`. Core Data's layout, which a server's (`HistorySchema`) follows.
extension SQL {
    package static let ATRANSACTION = name("ATRANSACTION")
    package static let ACHANGE = name("ACHANGE")
    package static let ATRANSACTIONSTRING = name("ATRANSACTIONSTRING")

    package static let ZTIMESTAMP = name("ZTIMESTAMP")
    package static let ZNAME = name("ZNAME")
    package static let ZAUTHOR = name("ZAUTHOR")
    package static let ZCONTEXTNAME = name("ZCONTEXTNAME")
    package static let ZBUNDLEID = name("ZBUNDLEID")
    package static let ZPROCESSID = name("ZPROCESSID")
    package static let ZAUTHORTS = name("ZAUTHORTS")
    package static let ZCONTEXTNAMETS = name("ZCONTEXTNAMETS")
    package static let ZBUNDLEIDTS = name("ZBUNDLEIDTS")
    package static let ZPROCESSIDTS = name("ZPROCESSIDTS")

    package static let ZTRANSACTIONID = name("ZTRANSACTIONID")
    package static let ZCHANGETYPE = name("ZCHANGETYPE")
    package static let ZENTITY = name("ZENTITY")
    package static let ZENTITYPK = name("ZENTITYPK")
    package static let ZCOLUMNS = name("ZCOLUMNS")

    /// The first `count` tombstone columns of `ACHANGE`, each after a comma (`, ZTOMBSTONE0,
    /// ZTOMBSTONE1`): the tail of its column list in a `SELECT` or `INSERT`.
    package static func tombstoneColumns(_ count: Int) -> SQL {
        (0..<count).map { ", \(name: HistorySchema.tombstoneColumn($0))" as SQL }.joined(separator: "")
    }
}
