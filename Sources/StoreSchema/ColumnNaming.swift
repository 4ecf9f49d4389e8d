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
        let utf8 = name.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return "Z" + name.uppercased() }
        return String(unsafeUninitializedCapacity: utf8.count + 1) { buffer in
            buffer[0] = UInt8(ascii: "Z")
            var index = 1
            for byte in utf8 {
                buffer[index] = byte &- UInt8(ascii: "a") < 26 ? byte &- 0x20 : byte
                index += 1
            }
            return index
        }
    }

    /// The names of each request — the name, destination entity number for a `Z<n>_` companion,
    /// whether it has a `Z_FOK_` companion — when no two of them (nor `Z_PK`, `Z_ENT`, `Z_OPT`) are
    /// equal, so none needs a collision suffix; `nil` otherwise. Most tables have no collision, and
    /// this answers without hashing a single string: equal names are looked for by a 64-bit
    /// fingerprint, and an equal fingerprint (a collision, or very rarely two names that only share
    /// it) sends the table to the exact naming.
    static func namesWithoutCollisions(_ requests: [(name: String, entityNumber: Int?, needsOrderKey: Bool)]) -> [Names]? {
        var names: [Names] = []
        names.reserveCapacity(requests.count)
        var fingerprints: [UInt64] = [fingerprint("Z_PK"), fingerprint("Z_ENT"), fingerprint("Z_OPT")]
        fingerprints.reserveCapacity(requests.count + 8)
        for request in requests {
            let column = columnName(request.name)
            var entry = Names(column: column)
            fingerprints.append(fingerprint(column))
            if let number = request.entityNumber {
                let name = "Z\(number)_" + column.dropFirst()
                entry.entityColumn = name
                fingerprints.append(fingerprint(name))
            }
            if request.needsOrderKey {
                let name = "Z_FOK_" + column.dropFirst()
                entry.orderColumn = name
                fingerprints.append(fingerprint(name))
            }
            names.append(entry)
        }
        fingerprints.sort()
        for index in fingerprints.indices.dropFirst() where fingerprints[index] == fingerprints[index - 1] { return nil }
        return names
    }

    /// FNV-1a over the UTF-8 bytes.
    private static func fingerprint(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
