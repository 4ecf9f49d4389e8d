/// Names that generated Swift cannot use as they are.
///
/// The validator warns about them; the generator escapes or renames them.
public enum ReservedNames {
    /// Swift keywords that need backticks as identifiers (declarations, statements, expressions, types).
    public static let swiftKeywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package",
        "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "_",
    ]

    /// Members of `ManagedObject` (and `NSObject`-style protocols) that a property must not shadow.
    public static let objectMembers: Set<String> = [
        "objectID", "context", "managedObjectContext", "entity", "isFault", "isInserted", "isUpdated",
        "isDeleted", "hasChanges", "hasPersistentChangedValues", "changedValues", "committedValues",
        "value", "setValue", "primitiveValue", "setPrimitiveValue", "willSave", "didSave",
        "awakeFromInsert", "awakeFromFetch", "validateForInsert", "validateForUpdate",
        "validateForDelete", "prepareForDeletion", "description", "debugDescription", "hash",
        "hashValue", "Type", "Protocol", "class", "self",
    ]

    /// Type names that an entity class must not take, because generated code and user code use them
    /// unqualified: Swift standard and Foundation types, and the runtime's own types.
    public static let typeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Data", "Date", "Decimal", "Dictionary",
        "Double", "Error", "Float", "Int", "Int16", "Int32", "Int64", "Never", "Object", "Optional",
        "Result", "Set", "String", "Type", "URL", "UUID", "Void", "ManagedObject", "ObjectContext",
        "ObjectID", "PersistentStore", "FetchRequest", "Predicate", "SortDescriptor", "ObjectPredicate", "ObjectSortDescriptor",
        "FetchedResultsController", "EntityDescription", "Model", "ManagedObjectModel", "AttributeKey", "ToOneKey",
        "ToManyKey", "TransformableKey", "PredicateComparison", "DataModel", "DataStore", "Foundation",
        "AttributeValue", "CompactOptional", "StoredAttributeVisitor",
    ]

    /// Why a property name needs care in generated code.
    public enum PropertyNameClash: Sendable {
        case swiftKeyword
        case objectMember
    }

    /// Both property-name sets in one table, so checking a name costs one lookup.
    private static let propertyNameClashes: [String: PropertyNameClash] = {
        var table = Dictionary(uniqueKeysWithValues: objectMembers.map { ($0, PropertyNameClash.objectMember) })
        for keyword in swiftKeywords { table[keyword] = .swiftKeyword }
        return table
    }()

    /// How `name` clashes as a property name, or nil when it is safe as it is.
    public static func clash(forPropertyNamed name: String) -> PropertyNameClash? {
        propertyNameClashes[name]
    }
}
