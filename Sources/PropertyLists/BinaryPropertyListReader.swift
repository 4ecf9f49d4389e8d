/// Reads `bplist00` binary property lists, such as the `Z_PLIST` of a store Core Data wrote.
///
/// Every offset and count is checked against the buffer, and object references may not loop, so a
/// damaged blob gives a `BinaryPropertyListError` rather than a crash.
package struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int

    package static func decode(_ bytes: [UInt8]) throws(BinaryPropertyListError) -> PropertyListValue {
        let trailerSize = 32
        guard bytes.count >= 8 + trailerSize, bytes.starts(with: "bplist0".utf8) else { throw .notABinaryPropertyList }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = readInteger(bytes, at: trailer + 8, width: 8)
        let topObject = readInteger(bytes, at: trailer + 16, width: 8)
        let tableStart = readInteger(bytes, at: trailer + 24, width: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0,
              objectCount <= bytes.count, topObject >= 0, topObject < objectCount, tableStart >= 8,
              tableStart <= trailer, (trailer - tableStart) / offsetSize >= objectCount
        else { throw .malformed("bad trailer") }
        let offsets = (0..<objectCount).map { readInteger(bytes, at: tableStart + $0 * offsetSize, width: offsetSize) }
        guard offsets.allSatisfy({ $0 >= 8 && $0 < tableStart }) else { throw .malformed("object offset out of range") }
        let reader = BinaryPropertyListReader(bytes: bytes, offsets: offsets, referenceSize: referenceSize)
        // By object: whether it is being read, which a reference back to it would loop on.
        var visiting = [Bool](repeating: false, count: reader.offsets.count)
        return try reader.object(topObject, visiting: &visiting)
    }

    private init(bytes: [UInt8], offsets: [Int], referenceSize: Int) {
        self.bytes = bytes
        self.offsets = offsets
        self.referenceSize = referenceSize
    }

    private func object(_ index: Int, visiting: inout [Bool]) throws(BinaryPropertyListError) -> PropertyListValue {
        guard index >= 0, index < offsets.count else { throw .malformed("object reference out of range") }
        guard !visiting[index] else { throw .malformed("object references loop") }
        visiting[index] = true
        defer { visiting[index] = false }
        var position = offsets[index]
        let marker = bytes[position]
        position += 1
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .boolean(false)
        case 0x0 where marker == 0x09: return .boolean(true)
        case 0x1:
            guard low <= 4 else { throw .malformed("bad integer width") }
            let width = 1 << low
            try require(position, width)
            let value = Self.readInteger(bytes, at: position, width: width)
            return .integer(width == 16 ? Self.readInteger(bytes, at: position + 8, width: 8) : value)
        case 0x2, 0x3:
            guard low == 2 || low == 3 else { throw .malformed("bad real width") }
            let width = 1 << low
            try require(position, width)
            let bits = UInt64(bitPattern: Int64(Self.readInteger(bytes, at: position, width: width)))
            let number = width == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
            return marker >> 4 == 0x3 ? .date(number) : .real(number)
        case 0x4:
            let count = try length(low, &position)
            try require(position, count)
            return .data(Array(bytes[position..<(position + count)]))
        case 0x5:
            let count = try length(low, &position)
            try require(position, count)
            return .string(String(decoding: bytes[position..<(position + count)], as: UTF8.self))
        case 0x6:
            let count = try length(low, &position)
            try require(position, count * 2)
            let units = (0..<count).map { UInt16(bytes[position + $0 * 2]) << 8 | UInt16(bytes[position + $0 * 2 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            // A keyed archive's reference to one of its objects, as XML property lists spell it.
            let width = low + 1
            try require(position, width)
            return .dictionary(["CF$UID": .integer(Self.readInteger(bytes, at: position, width: width))])
        case 0xA:
            let count = try length(low, &position)
            try require(position, count * referenceSize)
            var elements: [PropertyListValue] = []
            for element in 0..<count {
                elements.append(try object(reference(at: position + element * referenceSize), visiting: &visiting))
            }
            return .array(elements)
        case 0xD:
            let count = try length(low, &position)
            try require(position, count * referenceSize * 2)
            var entries: [String: PropertyListValue] = [:]
            for entry in 0..<count {
                guard case .string(let key) = try object(reference(at: position + entry * referenceSize), visiting: &visiting)
                else { throw .malformed("dictionary key is not a string") }
                entries[key] = try object(reference(at: position + (count + entry) * referenceSize), visiting: &visiting)
            }
            return .dictionary(entries)
        default:
            throw .malformed("unsupported object type 0x\(String(marker, radix: 16))")
        }
    }

    /// The element count in a marker's low nibble, or in the integer object after it when that is `0xF`.
    private func length(_ low: Int, _ position: inout Int) throws(BinaryPropertyListError) -> Int {
        guard low == 0x0F else { return low }
        try require(position, 1)
        let marker = bytes[position]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw .malformed("bad length") }
        let width = 1 << Int(marker & 0x0F)
        try require(position + 1, width)
        let count = Self.readInteger(bytes, at: position + 1, width: width)
        guard count >= 0, count <= bytes.count else { throw .malformed("bad length") }
        position += 1 + width
        return count
    }

    private func reference(at position: Int) -> Int {
        Self.readInteger(bytes, at: position, width: referenceSize)
    }

    private func require(_ position: Int, _ count: Int) throws(BinaryPropertyListError) {
        guard count >= 0, position + count <= bytes.count else { throw .malformed("object runs past the end") }
    }

    private static func readInteger(_ bytes: [UInt8], at position: Int, width: Int) -> Int {
        var value: UInt64 = 0
        for byte in bytes[position..<(position + width)] { value = value << 8 | UInt64(byte) }
        return Int(truncatingIfNeeded: value)
    }
}

/// Why bytes could not be read as a binary property list.
public enum BinaryPropertyListError: Error, Equatable, CustomStringConvertible {
    case notABinaryPropertyList
    case malformed(String)

    public var description: String {
        switch self {
        case .notABinaryPropertyList: "not a binary property list"
        case .malformed(let reason): "damaged binary property list: \(reason)"
        }
    }
}
