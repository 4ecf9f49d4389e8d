/// A `bplist00` binary property list, such as the `Z_PLIST` of a store Core Data wrote or the
/// model it carries, read in place: an object is read when it is asked for, by its index in the
/// list's offset table, so a reader that needs a few fields of a large list reads only those.
///
/// Every offset and count is checked against the buffer, and a full decode refuses object
/// references that loop, so a damaged list gives a `BinaryPropertyListError` rather than a crash.
package struct BinaryPropertyList: Sendable {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    /// The index of the list's root object.
    package let top: Int

    /// One object, read no deeper than its own bytes: a collection gives its references.
    package enum Object {
        case scalar(PropertyListValue)
        /// A keyed archive's reference to one of its objects.
        case uid(Int)
        case array(References)
        case dictionary(keys: References, values: References)
    }

    /// Where a collection's references are: the indexes of its elements, read with `reference(_:of:)`.
    package struct References: Sendable, Equatable {
        fileprivate let start: Int
        // Two words in all: values of archives are copied often.
        private let storedCount: Int32
        fileprivate let width: Int32

        fileprivate init(start: Int, width: Int, count: Int) {
            self.start = start
            self.width = Int32(width)
            storedCount = Int32(count)
        }

        /// The number of references.
        package var count: Int { Int(storedCount) }

        /// A dictionary's value references, which follow its key references.
        package var following: References {
            References(start: start + count * Int(width), width: Int(width), count: count)
        }
    }

    /// The whole value `bytes` hold.
    package static func decode(_ bytes: [UInt8]) throws(BinaryPropertyListError) -> PropertyListValue {
        let list = try BinaryPropertyList(bytes)
        // By object: whether it is being read, which a reference back to it would loop on.
        var visiting = [Bool](repeating: false, count: list.offsets.count)
        return try list.value(list.top, visiting: &visiting)
    }

    /// The list `bytes` hold; its trailer and offset table are checked here, its objects as they are read.
    package init(_ bytes: [UInt8]) throws(BinaryPropertyListError) {
        let trailerSize = 32
        guard bytes.count >= 8 + trailerSize, bytes.starts(with: "bplist0".utf8) else { throw .notABinaryPropertyList }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.readInteger(bytes, at: trailer + 8, width: 8)
        let topObject = Self.readInteger(bytes, at: trailer + 16, width: 8)
        let tableStart = Self.readInteger(bytes, at: trailer + 24, width: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0,
              objectCount <= bytes.count, topObject >= 0, topObject < objectCount, tableStart >= 8,
              tableStart <= trailer, (trailer - tableStart) / offsetSize >= objectCount
        else { throw .malformed("bad trailer") }
        let offsets = (0..<objectCount).map { Self.readInteger(bytes, at: tableStart + $0 * offsetSize, width: offsetSize) }
        guard offsets.allSatisfy({ $0 >= 8 && $0 < tableStart }) else { throw .malformed("object offset out of range") }
        self.bytes = bytes
        self.offsets = offsets
        self.referenceSize = referenceSize
        self.top = topObject
    }

    /// The number of objects in the list.
    package var count: Int { offsets.count }

    /// The list's bytes: two lists are the same list when these are equal.
    package var contents: [UInt8] { bytes }

    /// Object `index`, read one level deep.
    package func object(_ index: Int) throws(BinaryPropertyListError) -> Object {
        guard index >= 0, index < offsets.count else { throw .malformed("object reference out of range") }
        var position = offsets[index]
        let marker = bytes[position]
        position += 1
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .scalar(.boolean(false))
        case 0x0 where marker == 0x09: return .scalar(.boolean(true))
        case 0x1:
            guard low <= 4 else { throw .malformed("bad integer width") }
            let width = 1 << low
            try require(position, width)
            let value = Self.readInteger(bytes, at: position, width: width)
            return .scalar(.integer(width == 16 ? Self.readInteger(bytes, at: position + 8, width: 8) : value))
        case 0x2, 0x3:
            guard low == 2 || low == 3 else { throw .malformed("bad real width") }
            let width = 1 << low
            try require(position, width)
            let bits = UInt64(bitPattern: Int64(Self.readInteger(bytes, at: position, width: width)))
            let number = width == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
            return .scalar(marker >> 4 == 0x3 ? .date(number) : .real(number))
        case 0x4:
            let count = try length(low, &position)
            try require(position, count)
            return .scalar(.data(Array(bytes[position..<(position + count)])))
        case 0x5:
            let count = try length(low, &position)
            try require(position, count)
            return .scalar(.string(String(decoding: bytes[position..<(position + count)], as: UTF8.self)))
        case 0x6:
            let count = try length(low, &position)
            try require(position, count * 2)
            let units = (0..<count).map { UInt16(bytes[position + $0 * 2]) << 8 | UInt16(bytes[position + $0 * 2 + 1]) }
            return .scalar(.string(String(decoding: units, as: UTF16.self)))
        case 0x8:
            let width = low + 1
            try require(position, width)
            return .uid(Self.readInteger(bytes, at: position, width: width))
        case 0xA:
            let count = try length(low, &position)
            try require(position, count * referenceSize)
            return .array(References(start: position, width: referenceSize, count: count))
        case 0xD:
            let count = try length(low, &position)
            try require(position, count * referenceSize * 2)
            return .dictionary(
                keys: References(start: position, width: referenceSize, count: count),
                values: References(start: position + count * referenceSize, width: referenceSize, count: count))
        default:
            throw .malformed("unsupported object type 0x\(String(marker, radix: 16))")
        }
    }

    /// Whether object `index` is the string `text`, compared as bytes when it is stored as ASCII
    /// (as an archive's field names are), with no `String` made of it.
    package func isString(_ index: Int, equalTo text: String) -> Bool {
        guard index >= 0, index < offsets.count else { return false }
        var position = offsets[index]
        let marker = bytes[position]
        guard marker >> 4 == 0x5 else {
            if case .scalar(.string(let string))? = try? object(index) { return string == text }
            return false
        }
        var text = text
        return text.withUTF8 { key in
            // The marker holds a length under 15: most names are told apart by it alone.
            if key.count < 15 {
                guard marker == 0x50 | UInt8(key.count) else { return false }
                position += 1
            } else {
                guard marker == 0x5F else { return false }
                position += 1
                guard let count = try? length(0x0F, &position), count == key.count else { return false }
            }
            guard position + key.count <= bytes.count else { return false }
            return bytes.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < key.count, buffer[position + offset] == key[offset] { offset += 1 }
                return offset == key.count
            }
        }
    }

    /// Reference `position` of `references`: the index of the object it names.
    package func reference(_ position: Int, of references: References) -> Int {
        Self.readInteger(bytes, at: references.start + position * Int(references.width), width: Int(references.width))
    }

    /// The index of the value a dictionary (`keys`, `values`) holds under `key`.
    package func value(forKey key: String, keys: References, values: References) -> Int? {
        (0..<keys.count).first { isString(reference($0, of: keys), equalTo: key) }.map { reference($0, of: values) }
    }

    /// Object `index` and everything it refers to.
    private func value(_ index: Int, visiting: inout [Bool], depth: Int = 0) throws(BinaryPropertyListError) -> PropertyListValue {
        guard index >= 0, index < offsets.count else { throw .malformed("object reference out of range") }
        // Deep nesting would exhaust the stack before a loop is found.
        guard depth < 512 else { throw .malformed("objects nest more than 512 deep") }
        guard !visiting[index] else { throw .malformed("object references loop") }
        visiting[index] = true
        defer { visiting[index] = false }
        switch try object(index) {
        case .scalar(let value):
            return value
        case .uid(let reference):
            // As XML property lists spell a keyed archive's reference.
            return .dictionary(["CF$UID": .integer(reference)])
        case .array(let references):
            var elements: [PropertyListValue] = []
            for element in 0..<references.count {
                elements.append(try value(reference(element, of: references), visiting: &visiting, depth: depth + 1))
            }
            return .array(elements)
        case .dictionary(let keys, let values):
            var entries: [String: PropertyListValue] = [:]
            for entry in 0..<keys.count {
                guard case .string(let key) = try value(reference(entry, of: keys), visiting: &visiting, depth: depth + 1) else {
                    throw .malformed("dictionary key is not a string")
                }
                entries[key] = try value(reference(entry, of: values), visiting: &visiting, depth: depth + 1)
            }
            return .dictionary(entries)
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
        guard count >= 0, count <= bytes.count, count <= Int32.max else { throw .malformed("bad length") }
        position += 1 + width
        return count
    }

    private func require(_ position: Int, _ count: Int) throws(BinaryPropertyListError) {
        guard count >= 0, position + count <= bytes.count else { throw .malformed("object runs past the end") }
    }

    private static func readInteger(_ bytes: [UInt8], at position: Int, width: Int) -> Int {
        // Indexed, not sliced: a slice would retain the buffer, and this runs for every reference.
        var value: UInt64 = 0
        var index = position
        while index < position + width {
            value = value << 8 | UInt64(bytes[index])
            index += 1
        }
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
