import Foundation
import GRDB

/// A stored value as SQLite's `DISTINCT` and `GROUP BY` tell values apart: numbers by value (`1`
/// and `1.0` are one), text by its UTF-8 bytes (`é` and `e` + combining accent are two), blobs by
/// their bytes — where Swift's `String` equality would merge canonically equivalent text.
enum StoredValueKey: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob(Data)
    case object(ObjectID)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = Int64(exactly: real).map(StoredValueKey.integer) ?? .real(real)
        case .string(let text): self = .text(Array(text.utf8))
        case .blob(let data): self = .blob(data)
        }
    }
}
