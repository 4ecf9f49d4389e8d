extension ArchivedValue {
    /// This value and everything it refers to, archived on their own with it as the root: what
    /// `NSKeyedArchiver.archivedData(withRootObject:)` gives for it, and so what Core Data's
    /// archiving value transformers store for it. A model keeps a Transformable attribute's
    /// default object inside its own archive; its column holds the object archived alone.
    ///
    ///     let cover = try attribute.value(forKey: "NSDefaultValue")
    ///     let stored = try cover.archivedAlone()      // a keyed archive whose root is the cover
    public func archivedAlone() throws(KeyedArchiveError) -> [UInt8] {
        var copier = ArchiveCopier()
        let root: PropertyListValue
        switch self {
        case .null: root = KeyedArchiveWriter.null
        case .string(let text): root = copier.writer.string(text)
        case .integer(let number): root = copier.writer.plain(.integer(number))
        case .real(let number): root = copier.writer.plain(.real(number))
        case .boolean(let flag): root = copier.writer.plain(.boolean(flag))
        case .data(let bytes): root = copier.writer.plain(.data(bytes))
        case .date(let seconds): root = copier.writer.plain(.date(seconds))
        case .object(let object): root = try copier.copy(object.number, of: object.archive)
        }
        return copier.writer.bytes(root: root)
    }
}

/// Copies archived objects from one archive into a new one, each once, so shared and looping
/// references stay shared and looping.
private struct ArchiveCopier {
    var writer = KeyedArchiveWriter()
    /// The reference in the new archive of each object copied, by its number in the old one.
    private var copied: [Int: PropertyListValue] = [:]

    /// Object `number` of `archive`, copied with what it refers to; its reference in the new archive.
    mutating func copy(_ number: Int, of archive: KeyedArchive) throws(KeyedArchiveError) -> PropertyListValue {
        if let reference = copied[number] { return reference }
        switch try archive.read(archive.index(ofObject: number)) {
        case .scalar(.string("$null")):
            return KeyedArchiveWriter.null
        case .scalar(let value):
            let reference = writer.plain(value)
            copied[number] = reference
            return reference
        case .dictionary(let keys, let values):
            let (reference, index) = writer.reserve()
            copied[number] = reference
            var fields: [String: PropertyListValue] = [:]
            var classNames: [String]?
            for field in 0..<keys.count {
                guard case .scalar(.string(let name)) = try archive.read(archive.list.reference(field, of: keys)) else {
                    throw .malformed("an object's field name is not a string")
                }
                let value = archive.list.reference(field, of: values)
                if name == "$class" {
                    guard let description = try archive.reference(archive.read(value)) else { throw .malformed("an object's $class is not a reference") }
                    classNames = archive.classNames(description)
                } else {
                    fields[name] = try copyField(value, of: archive)
                }
            }
            guard let classNames, !classNames.isEmpty else { throw .malformed("an object's $class is not a class description") }
            writer.fill(index, classNames: classNames, fields)
            return reference
        case .uid, .array:
            throw .malformed("an archived value is a bare collection, not an object")
        }
    }

    /// A field's value (property-list object `index`): a reference or a list of them copied, a
    /// plain value as it is.
    private mutating func copyField(_ index: Int, of archive: KeyedArchive) throws(KeyedArchiveError) -> PropertyListValue {
        let field = try archive.read(index)
        if let number = try archive.reference(field) { return try copy(number, of: archive) }
        switch field {
        case .scalar(let value):
            return value
        case .array(let elements):
            var copies: [PropertyListValue] = []
            for element in 0..<elements.count { copies.append(try copyField(archive.list.reference(element, of: elements), of: archive)) }
            return .array(copies)
        case .uid, .dictionary:
            throw .malformed("an object's field holds a dictionary that is not a reference")
        }
    }
}
