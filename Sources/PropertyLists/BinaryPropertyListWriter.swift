/// Writes `bplist00` binary property lists, the format of `Z_METADATA.Z_PLIST`.
///
/// Hand-written because Foundation's writer orders dictionary keys by hash, which changes from run
/// to run; here keys are written in ordinal order, so equal metadata always gives equal bytes.
///
/// A dictionary whose one key is `CF$UID` (how ``PropertyListValue`` spells a keyed archive's
/// reference) is written as the format's UID object, as `NSKeyedArchiver` writes references.
package enum BinaryPropertyListWriter {
    package static func encode(_ root: PropertyListValue) -> [UInt8] {
        var objects: [[UInt8]] = []
        let count = objectCount(root)
        let referenceSize = byteWidth(for: count)
        _ = append(root, to: &objects, referenceSize: referenceSize)

        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let offsetTableStart = output.count
        let offsetSize = byteWidth(for: offsetTableStart)
        for offset in offsets { output += bigEndian(offset, width: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        output += bigEndian(objects.count, width: 8)
        output += bigEndian(0, width: 8)
        output += bigEndian(offsetTableStart, width: 8)
        return output
    }

    /// Appends `value` and its children (depth first) and returns the index of `value`'s object.
    private static func append(_ value: PropertyListValue, to objects: inout [[UInt8]], referenceSize: Int) -> Int {
        let index = objects.count
        objects.append([])
        var encoded: [UInt8]
        switch value {
        case .boolean(let flag):
            encoded = [flag ? 0x09 : 0x08]
        case .integer(let number):
            encoded = integerObject(number)
        case .real(let number):
            encoded = [0x23] + bigEndian(Int(truncatingIfNeeded: Int64(bitPattern: number.bitPattern)), width: 8)
        case .date(let seconds):
            encoded = [0x33] + bigEndian(Int(truncatingIfNeeded: Int64(bitPattern: seconds.bitPattern)), width: 8)
        case .data(let bytes):
            encoded = marker(0x40, count: bytes.count) + bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                encoded = marker(0x50, count: text.utf8.count) + Array(text.utf8)
            } else {
                let units = Array(text.utf16)
                encoded = marker(0x60, count: units.count)
                for unit in units { encoded += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .array(let elements):
            let references = elements.map { append($0, to: &objects, referenceSize: referenceSize) }
            encoded = marker(0xA0, count: elements.count) + references.flatMap { bigEndian($0, width: referenceSize) }
        case .dictionary(let entries) where uid(entries) != nil:
            let reference = uid(entries)!
            let width = byteWidth(for: reference)
            encoded = [0x80 | UInt8(width - 1)] + bigEndian(reference, width: width)
        case .dictionary(let entries):
            let sorted = entries.sorted { String.ordinalLess($0.key, $1.key) }
            let keys = sorted.map { append(.string($0.key), to: &objects, referenceSize: referenceSize) }
            let values = sorted.map { append($0.value, to: &objects, referenceSize: referenceSize) }
            encoded = marker(0xD0, count: entries.count) + (keys + values).flatMap { bigEndian($0, width: referenceSize) }
        }
        objects[index] = encoded
        return index
    }

    private static func objectCount(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.reduce(0) { $0 + objectCount($1) }
        case .dictionary(let entries) where uid(entries) != nil: 1
        case .dictionary(let entries): 1 + entries.reduce(0) { $0 + 1 + objectCount($1.value) }
        default: 1
        }
    }

    /// The reference a dictionary of the one key `CF$UID` stands for.
    private static func uid(_ entries: [String: PropertyListValue]) -> Int? {
        guard entries.count == 1, let reference = entries["CF$UID"]?.integer, reference >= 0 else { return nil }
        return reference
    }

    /// A type marker with its count in the low nibble, or `0xF` followed by an integer object.
    private static func marker(_ type: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [type | UInt8(count)] : [type | 0x0F] + integerObject(count)
    }

    /// Integers take 1, 2, 4 or 8 bytes; negative ones always 8, as Apple's writer does.
    private static func integerObject(_ number: Int) -> [UInt8] {
        let width = number < 0 ? 8 : byteWidth(for: number)
        let exponent: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3
        return [0x10 | exponent] + bigEndian(number, width: width)
    }

    private static func byteWidth(for value: Int) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func bigEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
