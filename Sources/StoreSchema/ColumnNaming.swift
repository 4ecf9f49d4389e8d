/// Column names: `Z` + the uppercased name, with the `Z<n>_` and `Z_FOK_` companions of foreign keys.
enum ColumnNaming {
    /// The names of one requested column and its companions.
    struct Names {
        var column: String
        /// `Z<n>_<REL>`: the destination's entity number, for a foreign key into a hierarchy.
        var entityColumn: String?
        /// `Z_FOK_<REL>`: the position in an ordered to-many inverse.
        var orderColumn: String?
    }

    /// `Z` + `name` uppercased; ASCII names (nearly all) without going through Unicode case mapping.
    static func columnName(_ name: String) -> String {
        var fingerprint = NameFingerprint()
        return columnName(name, fingerprintingRest: &fingerprint)
    }

    /// `columnName(name)`, also fingerprinting what follows the `Z`.
    private static func columnName(_ name: String, fingerprintingRest fingerprint: inout NameFingerprint) -> String {
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 1) { buffer in
                buffer[0] = UInt8(ascii: "Z")
                for (index, byte) in bytes.enumerated() {
                    let upper = byte &- UInt8(ascii: "a") < 26 ? byte &- 0x20 : byte
                    buffer[index + 1] = upper
                    fingerprint.append(upper)
                }
                return bytes.count + 1
            }
        }
        if let ascii = ascii ?? nil { return ascii }
        let upper = name.uppercased()
        for byte in upper.utf8 { fingerprint.append(byte) }
        return "Z" + upper
    }

    /// The names of each request — the name, destination entity number for a `Z<n>_` companion,
    /// whether it has a `Z_FOK_` companion — when no two of them (nor `Z_PK`, `Z_ENT`, `Z_OPT`) are
    /// equal, so none needs a collision suffix; `nil` otherwise. Most tables have no collision, and
    /// this answers without hashing a single string: equal names are looked for by their
    /// `NameFingerprint`, and an equal fingerprint (a collision, or very rarely two names that only share
    /// it) sends the table to the exact naming.
    static func namesWithoutCollisions(_ requests: [StoreSchemaBuilder.Request]) -> [Names]? {
        var names: [Names] = []
        names.reserveCapacity(requests.count)
        var fingerprints = reservedFingerprints
        fingerprints.reserveCapacity(requests.count + 8)
        for index in requests.indices {
            var rest = NameFingerprint()
            let column = columnName(requests[index].nameBase, fingerprintingRest: &rest)
            var entry = Names(column: column)
            fingerprints.append(rest.prefixed(by: columnPrefix))
            if let number = requests[index].foreignEntityNumber {
                let prefix = "Z" + String(number) + "_"
                entry.entityColumn = prefix + column.dropFirst()
                fingerprints.append(rest.prefixed(by: NameFingerprint(prefix)))
            }
            if requests[index].needsOrderKey {
                entry.orderColumn = "Z_FOK_" + column.dropFirst()
                fingerprints.append(rest.prefixed(by: orderKeyPrefix))
            }
            names.append(entry)
        }
        return NameFingerprint.areDistinct(&fingerprints) ? names : nil
    }

    private static let reservedFingerprints = ["Z_PK", "Z_ENT", "Z_OPT"].map { NameFingerprint($0).value }
    private static let columnPrefix = NameFingerprint("Z")
    private static let orderKeyPrefix = NameFingerprint("Z_FOK_")
}
