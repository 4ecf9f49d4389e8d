/// An object graph archived by Foundation's `NSKeyedArchiver`: the form in which Core Data's files
/// keep expressions, user info and models inside a property list. The archive is a dictionary whose
/// `$objects` array holds every object once, with references (`["CF$UID": n]`) between them, and
/// whose `$top` names the roots.
///
///     let archive = try KeyedArchive(binaryPropertyList: bytes)
///     let root = try archive.topValue()                 // .object(…) of class NSKeyPathExpression
///
/// Every reference is checked against the archive, so a damaged one gives a `KeyedArchiveError`,
/// never a crash; objects are resolved as they are asked for, so references that loop are harmless.
public struct KeyedArchive: Sendable, Equatable {
    let objects: [PropertyListValue]
    let top: [String: PropertyListValue]

    /// The archive a binary property list holds.
    public init(binaryPropertyList bytes: [UInt8]) throws(KeyedArchiveError) {
        let root: PropertyListValue
        do {
            root = try BinaryPropertyListReader.decode(bytes)
        } catch {
            throw .malformed("\(error)")
        }
        try self.init(root)
    }

    /// The archive a property list holds.
    public init(_ root: PropertyListValue) throws(KeyedArchiveError) {
        guard let entries = root.dictionary, entries["$archiver"]?.string == "NSKeyedArchiver",
              let objects = entries["$objects"]?.array, let top = entries["$top"]?.dictionary
        else { throw .malformed("not an NSKeyedArchiver archive ($archiver, $objects and $top)") }
        self.objects = objects
        self.top = top
    }

    /// The value archived at the top under `key` (`root`, the key `NSKeyedArchiver` uses for one object).
    public func topValue(forKey key: String = "root") throws(KeyedArchiveError) -> ArchivedValue {
        guard let value = top[key] else { throw .malformed("nothing is archived under \(key)") }
        return try resolve(value)
    }

    /// Every archived object whose own class is `className`, in archive order.
    public func objects(ofClass className: String) -> [ArchivedObject] {
        objects.indices.compactMap { index in
            guard case .object(let object)? = try? resolve(.dictionary(["CF$UID": .integer(index)])), object.className == className
            else { return nil }
            return object
        }
    }

    /// `value` with a reference replaced by what it refers to.
    func resolve(_ value: PropertyListValue) throws(KeyedArchiveError) -> ArchivedValue {
        guard case .dictionary(let entries) = value, entries.count == 1, let index = entries["CF$UID"]?.integer else {
            return try ArchivedValue(plain: value, in: self)
        }
        guard objects.indices.contains(index) else { throw .malformed("reference \(index) is past the \(objects.count) archived objects") }
        let object = objects[index]
        if object.string == "$null" { return .null }
        if case .dictionary(let fields) = object, fields["$class"] != nil {
            return .object(ArchivedObject(archive: self, fields: fields, classNames: try classNames(of: fields)))
        }
        return try ArchivedValue(plain: object, in: self)
    }

    /// The object's class and its superclasses, most derived first.
    private func classNames(of fields: [String: PropertyListValue]) throws(KeyedArchiveError) -> [String] {
        guard case .dictionary(let reference)? = fields["$class"], let index = reference["CF$UID"]?.integer,
              objects.indices.contains(index), let description = objects[index].dictionary,
              let name = description["$classname"]?.string
        else { throw .malformed("an object's $class is not a class description") }
        return description["$classes"]?.array?.compactMap(\.string) ?? [name]
    }
}

/// A value of a keyed archive: `nil`, a property-list scalar, or an archived object.
public enum ArchivedValue: Sendable, Equatable {
    case null
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case data([UInt8])
    case date(Double)
    case object(ArchivedObject)

    init(plain value: PropertyListValue, in archive: KeyedArchive) throws(KeyedArchiveError) {
        switch value {
        case .string(let string): self = string == "$null" ? .null : .string(string)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .boolean(let boolean): self = .boolean(boolean)
        case .data(let data): self = .data(data)
        case .date(let date): self = .date(date)
        case .array, .dictionary: throw .malformed("an archived value is a bare collection, not an object")
        }
    }

    /// The object, if this is one.
    public var object: ArchivedObject? {
        if case .object(let object) = self { object } else { nil }
    }

    /// The text of a string, or of an `NSString` object (`NS.string`).
    public var string: String? {
        switch self {
        case .string(let string): string
        case .object(let object): object.fields["NS.string"]?.string
        default: nil
        }
    }
}

/// An object of a keyed archive: its class names and its encoded fields, whose references resolve
/// through the archive.
public struct ArchivedObject: Sendable, Equatable {
    let archive: KeyedArchive
    let fields: [String: PropertyListValue]
    /// The object's class, then its superclasses (`NSMutableArray`, `NSArray`, `NSObject`).
    public let classNames: [String]

    /// The object's own class.
    public var className: String { classNames.first ?? "" }

    /// The names of the fields the object encoded.
    public var keys: [String] { fields.keys.filter { $0 != "$class" }.sorted() }

    /// The value encoded under `key`; `.null` when there is none.
    public func value(forKey key: String) throws(KeyedArchiveError) -> ArchivedValue {
        guard let value = fields[key] else { return .null }
        return try archive.resolve(value)
    }

    /// The elements of an array or set (`NS.objects`).
    public func elements() throws(KeyedArchiveError) -> [ArchivedValue] {
        guard let references = fields["NS.objects"]?.array else { throw .malformed("a \(className) has no NS.objects") }
        var elements: [ArchivedValue] = []
        for reference in references { elements.append(try archive.resolve(reference)) }
        return elements
    }

    /// The entries of a dictionary (`NS.keys` and `NS.objects`), in archive order.
    public func entries() throws(KeyedArchiveError) -> [(key: ArchivedValue, value: ArchivedValue)] {
        guard let keys = fields["NS.keys"]?.array, let values = fields["NS.objects"]?.array, keys.count == values.count else {
            throw .malformed("a \(className) has no NS.keys and NS.objects of one length")
        }
        var entries: [(key: ArchivedValue, value: ArchivedValue)] = []
        for (key, value) in zip(keys, values) { entries.append((try archive.resolve(key), try archive.resolve(value))) }
        return entries
    }
}

/// Why a keyed archive could not be read.
public enum KeyedArchiveError: Error, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "damaged keyed archive: \(reason)"
        }
    }
}
