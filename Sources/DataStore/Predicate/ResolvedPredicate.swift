import Foundation
import GRDB

/// A predicate checked against an entity: key paths resolved to properties, constants converted to
/// the stored form of what they are compared with. The SQL compiler and the in-memory evaluator
/// both work from this one form, which is why they agree.
indirect enum ResolvedPredicate {
    case constant(Bool)
    case not(ResolvedPredicate)
    case and([ResolvedPredicate])
    case or([ResolvedPredicate])
    case compare(ResolvedExpression, ComparisonOperator, ResolvedExpression, StringOptions)
    /// `ANY`/`ALL`/`NONE`: `predicate` holds for some, every or no element of `collection`; the
    /// element is scope `collection.elementScope` inside `predicate`.
    case quantified(Quantifier, ResolvedCollection, ResolvedPredicate)
}

extension ResolvedPredicate {
    /// Whether a server judges it in memory, since its SQL cannot say it: it calls the text
    /// functions of `StoreFunctions` (string operators, `[c]` and `[d]`), which only a SQLite
    /// store's connections have, or compares with text holding U+0000, which a server's text
    /// cannot hold, nor a query bind.
    var isJudgedInMemoryOnServers: Bool {
        switch self {
        case .constant: false
        case .not(let predicate): predicate.isJudgedInMemoryOnServers
        case .and(let terms), .or(let terms): terms.contains { $0.isJudgedInMemoryOnServers }
        case .compare(let lhs, let comparisonOperator, let rhs, let options):
            comparisonOperator.isStringOperator || !options.isEmpty || lhs.isJudgedInMemoryOnServers || rhs.isJudgedInMemoryOnServers
        case .quantified(_, _, let predicate): predicate.isJudgedInMemoryOnServers
        }
    }
}

/// A side of a resolved comparison.
indirect enum ResolvedExpression {
    /// A constant in the store's form (dates as reference-date seconds, UUIDs as 16 bytes, …).
    case value(DatabaseValue)
    /// An object constant, or `nil`.
    case objectValue(ObjectID?)
    /// The constants of `IN` and `BETWEEN`.
    case list([ResolvedExpression])
    /// An attribute at the end of a key path.
    case attribute(ResolvedPath, AttributeDescription)
    /// The object at the end of a key path: `SELF`, a variable, or a to-one relationship.
    case object(ResolvedPath)
    /// `@count`, `@sum.key`, … of a to-many; `value` is read from each element (its scope).
    case aggregate(AggregateFunction, ResolvedCollection, value: (ResolvedPath, AttributeDescription)?)
    /// `SUBQUERY(collection, $x, predicate).@count`.
    case subqueryCount(ResolvedCollection, ResolvedPredicate)
    /// An operator of numbers: arithmetic (`+ - * / modulus:by:`) or bits (`& | ^ << >> ~`), as
    /// SQLite computes it. `inReals`: the operands are read as reals first (an operand of a real
    /// type), so that `/` divides as reals do.
    case operation(PredicateFunction, [ResolvedExpression], inReals: Bool)
    /// A function computed by `PredicateFunction.value(of:)` in memory and in SQLite's SQL alike:
    /// `abs:`, `sqrt:`, `raise:toPower:`, `lowercase:`, `length:`, ….
    case function(PredicateFunction, [ResolvedExpression])
    /// `TERNARY(condition, whenTrue, whenFalse)`.
    case conditional(ResolvedPredicate, ResolvedExpression, ResolvedExpression)
    /// `number.stringValue`: the number as text, as `NSNumber` writes it (``NumberText``).
    case numberText(ResolvedExpression)
    /// A fetch's results (`IN` a fetch), or its one value (a count, an aggregate without groups).
    case fetched(ResolvedFetch)
}

extension ResolvedExpression {
    /// No value, for a side of `kind`: no object, or `NULL`.
    static func null(of kind: PredicateResolver.ValueKind) -> ResolvedExpression {
        kind == .object ? .objectValue(nil) : .value(.null)
    }

    /// Whether a server judges it in memory: see `ResolvedPredicate.isJudgedInMemoryOnServers`.
    var isJudgedInMemoryOnServers: Bool {
        switch self {
        case .value(let value): if case .string(let text) = value.storage { text.utf8.contains(0) } else { false }
        case .subqueryCount(_, let predicate): predicate.isJudgedInMemoryOnServers
        case .list(let elements): elements.contains { $0.isJudgedInMemoryOnServers }
        // A fetch that a server cannot run as SQL is refused when it is resolved.
        case .objectValue, .attribute, .object, .aggregate, .fetched: false
        // A server's shifts wrap their count, and its text and math functions are not the runtime's.
        case .operation(let function, let operands, _):
            function == .leftShift || function == .rightShift || operands.contains { $0.isJudgedInMemoryOnServers }
        case .function, .numberText: true
        case .conditional(let condition, let whenTrue, let whenFalse):
            condition.isJudgedInMemoryOnServers || whenTrue.isJudgedInMemoryOnServers || whenFalse.isJudgedInMemoryOnServers
        }
    }

    /// Whether it is an attribute of type UUID.
    var isUUIDAttribute: Bool {
        if case .attribute(_, let attribute) = self { attribute.type == .uuid } else { false }
    }

    /// The expression with its UUID constants (16 bytes) as text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    var withUUIDsAsText: ResolvedExpression {
        switch self {
        case .value(let value):
            guard case .blob(let bytes) = value.storage, bytes.count == 16 else { return self }
            return .value(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString.databaseValue)
        case .list(let elements): return .list(elements.map(\.withUUIDsAsText))
        default: return self
        }
    }
}

enum AggregateFunction: String {
    case count = "@count", sum = "@sum", average = "@avg", minimum = "@min", maximum = "@max"
}

/// A key path through to-one relationships from an object in scope: the fetched object is scope 0,
/// each quantifier or `SUBQUERY` element the next.
struct ResolvedPath {
    var scope: Int
    /// The entity of the object in scope.
    var start: EntityDescription
    /// The to-one relationships followed, each with its destination entity.
    var toOnes: [(relationship: RelationshipDescription, destination: EntityDescription)] = []

    /// The entity at the end of the path.
    var end: EntityDescription { toOnes.last?.destination ?? start }
}

/// The destinations of a to-many relationship of the object at the end of `owner`.
struct ResolvedCollection {
    var owner: ResolvedPath
    var relationship: RelationshipDescription
    var destination: EntityDescription
    /// The scope of an element inside the quantified predicate or aggregate.
    var elementScope: Int
}
