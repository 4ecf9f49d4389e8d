/// An object graph archived by Foundation's `NSKeyedArchiver`: the form in which Core Data's files
/// keep expressions, user info and models inside a property list. The archive is a dictionary whose
/// `$objects` array holds every object once, with references (UIDs) between them, and whose `$top`
/// names the roots.
///
///     let archive = try KeyedArchive(binaryPropertyList: bytes)
///     let root = try archive.topValue()                 // .object(…) of class NSKeyPathExpression
///
/// The archive is read in place: an object's fields are found in the property list's bytes when
/// they are asked for, so reading a model of a thousand objects makes no dictionary of each.
/// Every reference is checked against the archive, so a damaged one gives a `KeyedArchiveError`,
/// never a crash; objects are resolved as they are asked for, so references that loop are harmless.
public struct KeyedArchive: Sendable, Equatable {
    private let storage: Storage

    /// What every value read from the archive shares: the property list and what is read of it once.
    private final class Storage: Sendable {
        let list: BinaryPropertyList
        /// The property-list index of each archived object, by its number in `$objects`.
        let objects: BinaryPropertyList.References
        let top: (keys: BinaryPropertyList.References, values: BinaryPropertyList.References)
        /// The class and superclass names of each class description, by its number in `$objects`.
        let classes: [[String]?]
        /// Each field name the archive's objects use, by its text: the property-list index of its
        /// first copy. Finding a field compares these numbers, not text.
        let fieldNames: FieldNameTable
        /// By property-list index: the first copy of the same field name, or -1 for an object that
        /// is no field name (an archiver writes each name once, but need not).
        let firstCopies: [Int]
        /// `$class`, the field that makes a dictionary an object.
        let classFieldName: Int?

        init(_ list: BinaryPropertyList, objects: BinaryPropertyList.References, top: (BinaryPropertyList.References, BinaryPropertyList.References)) throws {
            self.list = list
            self.objects = objects
            self.top = top
            var fieldNames: [String: Int] = [:]
            var firstCopies = [Int](repeating: -2, count: list.count)
            // Class descriptions are the dictionaries with a `$classname`.
            var classDescriptions: [(number: Int, keys: BinaryPropertyList.References, nameField: Int)] = []
            var classNameKey = -1
            for number in 0..<objects.count {
                guard case .dictionary(let keys, _) = try list.object(list.reference(number, of: objects)) else { continue }
                for field in 0..<keys.count {
                    let key = list.reference(field, of: keys)
                    guard key >= 0, key < firstCopies.count else { continue }
                    if firstCopies[key] == -2 {
                        firstCopies[key] = -1
                        guard case .scalar(.string(let name)) = try list.object(key) else { continue }
                        if let first = fieldNames[name] { firstCopies[key] = first } else { fieldNames[name] = key; firstCopies[key] = key }
                        if name == "$classname", classNameKey < 0 { classNameKey = key }
                    }
                    if classNameKey >= 0, firstCopies[key] == classNameKey { classDescriptions.append((number, keys, field)) }
                }
            }
            self.fieldNames = FieldNameTable(fieldNames.map { ($0.key, $0.value) })
            self.firstCopies = firstCopies
            classFieldName = fieldNames["$class"]
            var classes = [[String]?](repeating: nil, count: objects.count)
            let classesField = fieldNames["$classes"]
            for (number, keys, nameField) in classDescriptions {
                guard case .scalar(.string(let name)) = try list.object(list.reference(nameField, of: keys.following)) else { continue }
                classes[number] = [name]
                if let field = Self.field(classesField, keys: keys, values: keys.following, list: list, firstCopies: firstCopies),
                   case .array(let references) = try list.object(field) {
                    classes[number] = try (0..<references.count).compactMap { element in
                        if case .scalar(.string(let name)) = try list.object(list.reference(element, of: references)) { name } else { nil }
                    }
                }
            }
            self.classes = classes
        }

        /// The property-list index of the value an object's fields (`keys`, `values`) hold under
        /// the field name `name` (a first copy).
        func field(_ name: Int?, keys: BinaryPropertyList.References, values: BinaryPropertyList.References) -> Int? {
            Self.field(name, keys: keys, values: values, list: list, firstCopies: firstCopies)
        }

        private static func field(
            _ name: Int?, keys: BinaryPropertyList.References, values: BinaryPropertyList.References, list: BinaryPropertyList, firstCopies: [Int]
        ) -> Int? {
            guard let name else { return nil }
            for field in 0..<keys.count {
                let key = list.reference(field, of: keys)
                if key >= 0, key < firstCopies.count, firstCopies[key] == name { return list.reference(field, of: values) }
            }
            return nil
        }
    }

    /// The archive a binary property list holds.
    public init(binaryPropertyList bytes: [UInt8]) throws(KeyedArchiveError) {
        do {
            let list = try BinaryPropertyList(bytes)
            guard case .dictionary(let keys, let values) = try list.object(list.top),
                  let archiver = list.value(forKey: "$archiver", keys: keys, values: values), list.isString(archiver, equalTo: "NSKeyedArchiver"),
                  let objectsField = list.value(forKey: "$objects", keys: keys, values: values),
                  case .array(let objects) = try list.object(objectsField),
                  let topField = list.value(forKey: "$top", keys: keys, values: values),
                  case .dictionary(let topKeys, let topValues) = try list.object(topField)
            else { throw KeyedArchiveError.malformed("not an NSKeyedArchiver archive ($archiver, $objects and $top)") }
            storage = try Storage(list, objects: objects, top: (topKeys, topValues))
        } catch let error as KeyedArchiveError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// The archive a property list holds.
    public init(_ root: PropertyListValue) throws(KeyedArchiveError) {
        try self.init(binaryPropertyList: BinaryPropertyListWriter.encode(root))
    }

    /// Two archives are equal when their property lists' bytes are.
    public static func == (lhs: KeyedArchive, rhs: KeyedArchive) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.list.contents == rhs.storage.list.contents
    }

    var list: BinaryPropertyList { storage.list }

    /// The value archived at the top under `key` (`root`, the key `NSKeyedArchiver` uses for one object).
    public func topValue(forKey key: String = "root") throws(KeyedArchiveError) -> ArchivedValue {
        guard let field = list.value(forKey: key, keys: storage.top.keys, values: storage.top.values) else {
            throw .malformed("nothing is archived under \(key)")
        }
        return try resolve(field: field)
    }

    /// Every archived object whose own class is `className`, in archive order.
    public func objects(ofClass className: String) -> [ArchivedObject] {
        (0..<storage.objects.count).compactMap { number in
            guard case .object(let object)? = try? resolve(number: number), object.className == className else { return nil }
            return object
        }
    }

    /// The property-list index of the value an object's fields (`keys`, `values`) hold under `key`.
    func field(_ key: String, keys: BinaryPropertyList.References, values: BinaryPropertyList.References) -> Int? {
        storage.field(storage.fieldNames.index(of: key) { list.isString($0, equalTo: key) }, keys: keys, values: values)
    }

    /// The value of a field (property-list object `index`): a reference replaced by what it refers to.
    func resolve(field index: Int) throws(KeyedArchiveError) -> ArchivedValue {
        let field = try read(index)
        if case .scalar(let value) = field { return ArchivedValue(plain: value) }
        guard let number = try reference(field) else { throw .malformed("an archived value is a bare collection, not an object") }
        return try resolve(number: number)
    }

    /// The object number a field refers to, if it is a reference: a UID, or
    /// `["CF$UID": n]` as an XML property list spells one.
    func reference(_ field: BinaryPropertyList.Object) throws(KeyedArchiveError) -> Int? {
        switch field {
        case .uid(let number): return number
        case .dictionary(let keys, let values) where keys.count == 1 && list.isString(list.reference(0, of: keys), equalTo: "CF$UID"):
            if case .scalar(.integer(let number)) = try read(list.reference(0, of: values)) { return number }
            return nil
        default: return nil
        }
    }

    /// Archived object `number` of `$objects`.
    private func resolve(number: Int) throws(KeyedArchiveError) -> ArchivedValue {
        switch try read(index(ofObject: number)) {
        case .scalar(let value): return ArchivedValue(plain: value)
        case .dictionary(let keys, let values):
            guard let classField = storage.field(storage.classFieldName, keys: keys, values: values) else {
                throw .malformed("an archived value is a bare collection, not an object")
            }
            guard let classNumber = try reference(read(classField)), storage.classes.indices.contains(classNumber),
                  storage.classes[classNumber] != nil
            else {
                throw .malformed("an object's $class is not a class description")
            }
            return .object(ArchivedObject(archive: self, number: number, keys: keys, classNumber: classNumber))
        case .uid, .array: throw .malformed("an archived value is a bare collection, not an object")
        }
    }

    /// The property-list index of archived object `number` of `$objects`.
    func index(ofObject number: Int) throws(KeyedArchiveError) -> Int {
        guard number >= 0, number < storage.objects.count else {
            throw .malformed("reference \(number) is past the \(storage.objects.count) archived objects")
        }
        return list.reference(number, of: storage.objects)
    }

    /// The class and superclass names of class description `number`.
    func classNames(_ number: Int) -> [String] {
        storage.classes[number] ?? []
    }

    /// `list.object(index)`, its error a `KeyedArchiveError`.
    func read(_ index: Int) throws(KeyedArchiveError) -> BinaryPropertyList.Object {
        do {
            return try list.object(index)
        } catch {
            throw .malformed("\(error)")
        }
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

    init(plain value: PropertyListValue) {
        switch value {
        case .string(let string): self = string == "$null" ? .null : .string(string)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .boolean(let boolean): self = .boolean(boolean)
        case .data(let data): self = .data(data)
        case .date(let date): self = .date(date)
        case .array, .dictionary: self = .null  // never given: collections are read as references
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
        case .object(let object): try? object.value(forKey: "NS.string").string
        default: nil
        }
    }
}

/// An object of a keyed archive: its class names and its encoded fields, whose references resolve
/// through the archive.
public struct ArchivedObject: Sendable, Equatable {
    let archive: KeyedArchive
    /// The object's number in `$objects`.
    let number: Int
    /// The property-list indexes of the object's field names; those of their values follow them.
    private let fieldNames: BinaryPropertyList.References
    private let classNumber: Int

    init(archive: KeyedArchive, number: Int, keys: BinaryPropertyList.References, classNumber: Int) {
        self.archive = archive
        self.number = number
        self.fieldNames = keys
        self.classNumber = classNumber
    }

    /// Two objects are equal when they are the same object of equal archives.
    public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool {
        lhs.fieldNames == rhs.fieldNames && lhs.archive == rhs.archive
    }

    /// The object's class, then its superclasses (`NSMutableArray`, `NSArray`, `NSObject`).
    public var classNames: [String] { archive.classNames(classNumber) }

    /// The object's own class.
    public var className: String { classNames.first ?? "" }

    /// The names of the fields the object encoded.
    public var keys: [String] {
        (0..<fieldNames.count).compactMap { field -> String? in
            guard case .scalar(.string(let name))? = try? archive.read(archive.list.reference(field, of: fieldNames)), name != "$class" else { return nil }
            return name
        }.sorted()
    }

    /// The value encoded under `key`; `.null` when there is none.
    public func value(forKey key: String) throws(KeyedArchiveError) -> ArchivedValue {
        guard let field = field(key) else { return .null }
        return try archive.resolve(field: field)
    }

    /// The integer encoded under `key`; `nil` when there is none or the value is another kind.
    public func integer(forKey key: String) throws(KeyedArchiveError) -> Int? {
        if case .integer(let number) = try value(forKey: key) { number } else { nil }
    }

    /// The elements of an array or set (`NS.objects`).
    public func elements() throws(KeyedArchiveError) -> [ArchivedValue] {
        let references = try collection("NS.objects")
        var elements: [ArchivedValue] = []
        elements.reserveCapacity(references.count)
        for element in 0..<references.count { elements.append(try archive.resolve(field: archive.list.reference(element, of: references))) }
        return elements
    }

    /// The entries of a dictionary (`NS.keys` and `NS.objects`), in archive order.
    public func entries() throws(KeyedArchiveError) -> [(key: ArchivedValue, value: ArchivedValue)] {
        let keys = try collection("NS.keys"), values = try collection("NS.objects")
        guard keys.count == values.count else { throw .malformed("a \(className) has no NS.keys and NS.objects of one length") }
        var entries: [(key: ArchivedValue, value: ArchivedValue)] = []
        entries.reserveCapacity(keys.count)
        for entry in 0..<keys.count {
            entries.append((try archive.resolve(field: archive.list.reference(entry, of: keys)), try archive.resolve(field: archive.list.reference(entry, of: values))))
        }
        return entries
    }

    /// The property-list index of the value encoded under `key`.
    private func field(_ key: String) -> Int? {
        archive.field(key, keys: fieldNames, values: fieldNames.following)
    }

    /// The references of the array encoded under `key`.
    private func collection(_ key: String) throws(KeyedArchiveError) -> BinaryPropertyList.References {
        guard let field = field(key), case .array(let references) = try archive.read(field) else {
            throw .malformed("a \(className) has no \(key)")
        }
        return references
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
