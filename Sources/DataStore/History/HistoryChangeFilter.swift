import Foundation
import GRDB

/// A predicate on the history's changes, as Core Data filters an `NSPersistentHistoryChange`
/// fetch request: `changeType == 2 AND transaction.author != 'sync'`. Values compare as they do
/// in fetches (`[c]`, `[d]`, `BEGINSWITH`, `MATCHES`, `IN`, `BETWEEN`…). The keys:
///
/// | Key | Value |
/// |---|---|
/// | `changeID` | the change's number |
/// | `changeType` | 0 insert, 1 update, 2 delete (``HistoryChange/ChangeType``'s raw values) |
/// | `changedObjectID` | the object's ID, compared with objects or IDs |
/// | `entityName` | the name of the object's entity |
/// | `updatedProperties` | the changed properties' names: `'price' IN updatedProperties`, `updatedProperties CONTAINS 'price'`, `ANY updatedProperties BEGINSWITH 'z'` |
/// | `tombstone.NAME` | a deleted object's preserved value of `NAME` |
/// | `transaction.author`, `.contextName`, `.bundleID`, `.processID`, `.timestamp`, `.transactionNumber` | its transaction's |
struct HistoryChangeFilter {
    private let condition: Condition

    /// Resolves every key and operand of `predicate` once, before any change is read.
    init(_ predicate: ObjectPredicate) throws(HistoryError) {
        condition = try Self.resolve(predicate)
    }

    func matches(_ change: HistoryChange, of transaction: HistoryTransaction) -> Bool {
        condition.holds(for: change, transaction)
    }

    // MARK: Keys

    private enum Key {
        case changeID, changeType, changedObjectID, entityName, updatedProperties
        case tombstone(String)
        case author, contextName, bundleID, processID, timestamp, transactionNumber

        init?(_ path: [String]) {
            switch path {
            case ["changeID"]: self = .changeID
            case ["changeType"]: self = .changeType
            case ["changedObjectID"]: self = .changedObjectID
            case ["entityName"]: self = .entityName
            case ["updatedProperties"]: self = .updatedProperties
            case ["transaction", "author"]: self = .author
            case ["transaction", "contextName"]: self = .contextName
            case ["transaction", "bundleID"]: self = .bundleID
            case ["transaction", "processID"]: self = .processID
            case ["transaction", "timestamp"]: self = .timestamp
            case ["transaction", "transactionNumber"]: self = .transactionNumber
            default:
                guard path.count == 2, path[0] == "tombstone" else { return nil }
                self = .tombstone(path[1])
            }
        }

        func value(_ change: HistoryChange, _ transaction: HistoryTransaction) -> EvaluatedValue {
            switch self {
            case .changeID: .stored(change.changeID.databaseValue)
            case .changeType: .stored(change.changeType.rawValue.databaseValue)
            case .changedObjectID: .object(change.changedObjectID)
            case .entityName: .stored(change.changedObjectID.entityName.databaseValue)
            case .updatedProperties: .list((change.updatedProperties ?? []).sorted().map { .stored($0.databaseValue) })
            case .tombstone(let name): .stored(change.tombstone?[name]?.databaseValue ?? .null)
            case .author: .stored(transaction.author.databaseValue)
            case .contextName: .stored(transaction.contextName.databaseValue)
            case .bundleID: .stored(transaction.bundleID.databaseValue)
            case .processID: .stored(transaction.processID.databaseValue)
            case .timestamp: .stored(AttributeValue.date(transaction.timestamp).databaseValue)
            case .transactionNumber: .stored(transaction.transactionNumber.databaseValue)
            }
        }
    }

    // MARK: Resolving

    /// The predicate with its keys resolved.
    private indirect enum Condition {
        case constant(Bool)
        case not(Condition)
        case and([Condition])
        case or([Condition])
        case compare(Operand, ComparisonOperator, Operand, options: StringOptions, quantifier: Quantifier)

        func holds(for change: HistoryChange, _ transaction: HistoryTransaction) -> Bool {
            switch self {
            case .constant(let value): return value
            case .not(let inner): return !inner.holds(for: change, transaction)
            case .and(let terms): return terms.allSatisfy { $0.holds(for: change, transaction) }
            case .or(let terms): return terms.contains { $0.holds(for: change, transaction) }
            case .compare(let left, let comparisonOperator, let right, let options, let quantifier):
                let lhs = left.value(change, transaction), rhs = right.value(change, transaction)
                func holds(_ element: EvaluatedValue) -> Bool {
                    EvaluatedValue.compare(element, comparisonOperator, rhs, options: options, patternIsFolded: false)
                }
                guard case .list(let elements) = lhs else { return holds(lhs) }
                switch quantifier {
                case .any: return elements.contains(where: holds)
                case .all: return elements.allSatisfy(holds)
                case .none: return !elements.contains(where: holds)
                case .direct:
                    // `updatedProperties CONTAINS 'price'`: membership, as for a collection in Core Data.
                    guard comparisonOperator == .contains else { return holds(lhs) }
                    return EvaluatedValue.compare(rhs, .in, lhs, options: options, patternIsFolded: false)
                }
            }
        }
    }

    /// A side of a comparison: a key of the change, a constant, or a list of them.
    private indirect enum Operand {
        case key(Key)
        case value(EvaluatedValue)
        case list([Operand])

        /// Whether this is the one key a quantifier applies to.
        var isUpdatedProperties: Bool {
            if case .key(.updatedProperties) = self { true } else { false }
        }

        func value(_ change: HistoryChange, _ transaction: HistoryTransaction) -> EvaluatedValue {
            switch self {
            case .key(let key): key.value(change, transaction)
            case .value(let value): value
            case .list(let elements): .list(elements.map { $0.value(change, transaction) })
            }
        }
    }

    private static func resolve(_ predicate: ObjectPredicate) throws(HistoryError) -> Condition {
        switch predicate {
        case .constant(let value):
            return .constant(value)
        case .not(let inner):
            return .not(try resolve(inner))
        case .and(let terms):
            return .and(try terms.map { term throws(HistoryError) in try resolve(term) })
        case .or(let terms):
            return .or(try terms.map { term throws(HistoryError) in try resolve(term) })
        case .comparison(let comparison):
            let lhs = try operand(comparison.lhs, in: comparison), rhs = try operand(comparison.rhs, in: comparison)
            if comparison.quantifier != .direct, !lhs.isUpdatedProperties {
                throw .invalidPredicate("\(comparison.quantifier.rawValue) applies to updatedProperties only: '\(ObjectPredicate.comparison(comparison))'")
            }
            return .compare(lhs, comparison.operator, rhs, options: comparison.options, quantifier: comparison.quantifier)
        }
    }

    private static func operand(_ expression: PredicateExpression, in comparison: PredicateComparison) throws(HistoryError) -> Operand {
        switch expression {
        case .constant(let value):
            return try constant(value)
        case .collection(let elements):
            return .list(try elements.map { element throws(HistoryError) in try operand(element, in: comparison) })
        case .keyPath(.evaluatedObject, let path):
            guard let key = Key(path) else {
                throw .invalidPredicate("'\(path.joined(separator: "."))' is not a key of a history change, in '\(ObjectPredicate.comparison(comparison))'")
            }
            return .key(key)
        default:
            throw .invalidPredicate("only keys of the change and constants can be compared: '\(ObjectPredicate.comparison(comparison))'")
        }
    }

    private static func constant(_ value: PredicateValue) throws(HistoryError) -> Operand {
        switch value {
        case .attribute(let attribute): return .value(.stored(attribute.databaseValue))
        case .object(let object):
            guard let id = object.objectID else { throw .invalidPredicate("\(object) is not an object ID of a store") }
            return .value(.object(id))
        case .collection(let elements): return .list(try elements.map { element throws(HistoryError) in try constant(element) })
        case .fetch(let fetch): throw .invalidPredicate("a history change is compared with constants, not with \(fetch)")
        }
    }
}
