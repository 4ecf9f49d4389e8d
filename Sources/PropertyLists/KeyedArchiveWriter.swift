/// Writes a keyed archive as `NSKeyedArchiver` lays one out: each object once in `$objects`, each
/// class description once, objects referring to each other by UID. What ``KeyedArchive`` reads.
///
///     var writer = KeyedArchiveWriter()
///     let name = writer.string("source")
///     let root = writer.object("NSVariableExpression", ["NSVariable": name, "NSExpressionType": .integer(2)], superclasses: ["NSExpression"])
///     let bytes = writer.bytes(root: root)
package struct KeyedArchiveWriter {
    private var objects: [PropertyListValue] = [.string("$null")]
    /// The reference of each class description written, by class name.
    private var classes: [String: PropertyListValue] = [:]

    package init() {}

    /// The reference `$null` stands for: an absent value.
    package static let null = reference(0)

    /// Adds an object of class `className` with `fields` (values or references) and returns its
    /// reference; `superclasses` lists the classes between it and `NSObject`, nearest first.
    package mutating func object(_ className: String, _ fields: [String: PropertyListValue], superclasses: [String] = []) -> PropertyListValue {
        let (reference, index) = reserve()
        fill(index, className, fields, superclasses: superclasses)
        return reference
    }

    /// A place for an object written later with ``fill(_:_:_:superclasses:)``, so that it can refer
    /// to itself or be referred to before it is complete.
    package mutating func reserve() -> (reference: PropertyListValue, index: Int) {
        (add(.string("$null")), objects.count - 1)
    }

    package mutating func fill(_ index: Int, _ className: String, _ fields: [String: PropertyListValue], superclasses: [String] = []) {
        fill(index, classNames: [className] + superclasses + ["NSObject"], fields)
    }

    /// Fills a reserved place with an object whose class and superclasses, nearest first and
    /// ending at its root class, are `classNames`.
    package mutating func fill(_ index: Int, classNames: [String], _ fields: [String: PropertyListValue]) {
        var fields = fields
        fields["$class"] = classReference(classNames)
        objects[index] = .dictionary(fields)
    }

    package mutating func string(_ text: String) -> PropertyListValue { add(.string(text)) }

    /// Adds a value that is archived as itself (a string, number, date or data) and returns its reference.
    package mutating func plain(_ value: PropertyListValue) -> PropertyListValue { add(value) }

    package mutating func array(_ elements: [PropertyListValue]) -> PropertyListValue {
        object("NSArray", ["NS.objects": .array(elements)])
    }

    package mutating func dictionary(_ entries: [(String, PropertyListValue)], mutable: Bool = false) -> PropertyListValue {
        let keys = entries.map { string($0.0) }
        let fields: [String: PropertyListValue] = ["NS.keys": .array(keys), "NS.objects": .array(entries.map(\.1))]
        return mutable ? object("NSMutableDictionary", fields, superclasses: ["NSDictionary"]) : object("NSDictionary", fields)
    }

    /// The binary property list of the archive whose root object is `root`.
    package func bytes(root: PropertyListValue) -> [UInt8] {
        BinaryPropertyListWriter.encode(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$objects": .array(objects), "$top": .dictionary(["root": root]),
        ]))
    }

    private mutating func add(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return Self.reference(objects.count - 1)
    }

    private mutating func classReference(_ classNames: [String]) -> PropertyListValue {
        let className = classNames.first ?? ""
        if let known = classes[className] { return known }
        let reference = add(.dictionary(["$classname": .string(className), "$classes": .array(classNames.map(PropertyListValue.string))]))
        classes[className] = reference
        return reference
    }

    private static func reference(_ index: Int) -> PropertyListValue {
        .dictionary(["CF$UID": .integer(index)])
    }
}
