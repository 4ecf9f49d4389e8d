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
    private let predicate: ObjectPredicate

    /// Checks every key and operand of `predicate` before any change is read.
    init(_ predicate: ObjectPredicate) throws(HistoryError) {
        try Self.check(predicate)
        self.predicate = predicate
    }

    func matches(_ change: HistoryChange, of transaction: HistoryTransaction) -> Bool {
        Self.evaluate(predicate, change, transaction)
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

    // MARK: Checking

    private static func check(_ predicate: ObjectPredicate) throws(HistoryError) {
        switch predicate {
        case .constant:
            break
        case .not(let inner):
            try check(inner)
        case .and(let terms), .or(let terms):
            for term in terms { try check(term) }
        case .comparison(let comparison):
            try check(comparison.lhs, in: comparison)
            try check(comparison.rhs, in: comparison)
            if comparison.quantifier != .direct, !isList(comparison.lhs) {
                throw .invalidPredicate("\(comparison.quantifier.rawValue) applies to updatedProperties only: '\(ObjectPredicate.comparison(comparison))'")
            }
        }
    }

    private static func check(_ expression: PredicateExpression, in comparison: PredicateComparison) throws(HistoryError) {
        switch expression {
        case .constant:
            return
        case .collection(let elements):
            for element in elements { try check(element, in: comparison) }
        case .keyPath(.evaluatedObject, let path) where Key(path) != nil:
            return
        case .keyPath(.evaluatedObject, let path):
            throw .invalidPredicate("'\(path.joined(separator: "."))' is not a key of a history change, in '\(ObjectPredicate.comparison(comparison))'")
        default:
            throw .invalidPredicate("only keys of the change and constants can be compared: '\(ObjectPredicate.comparison(comparison))'")
        }
    }

    private static func isList(_ expression: PredicateExpression) -> Bool {
        if case .keyPath(.evaluatedObject, ["updatedProperties"]) = expression { true } else { false }
    }

    // MARK: Evaluating

    private static func evaluate(_ predicate: ObjectPredicate, _ change: HistoryChange, _ transaction: HistoryTransaction) -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .not(let inner): return !evaluate(inner, change, transaction)
        case .and(let terms): return terms.allSatisfy { evaluate($0, change, transaction) }
        case .or(let terms): return terms.contains { evaluate($0, change, transaction) }
        case .comparison(let comparison):
            let lhs = value(comparison.lhs, change, transaction), rhs = value(comparison.rhs, change, transaction)
            func holds(_ element: EvaluatedValue) -> Bool {
                EvaluatedValue.compare(element, comparison.operator, rhs, options: comparison.options, patternIsFolded: false)
            }
            guard case .list(let elements) = lhs else { return holds(lhs) }
            switch comparison.quantifier {
            case .any: return elements.contains(where: holds)
            case .all: return elements.allSatisfy(holds)
            case .none: return !elements.contains(where: holds)
            case .direct:
                // `updatedProperties CONTAINS 'price'`: membership, as for a collection in Core Data.
                guard comparison.operator == .contains else { return holds(lhs) }
                return EvaluatedValue.compare(rhs, .in, lhs, options: comparison.options, patternIsFolded: false)
            }
        }
    }

    private static func value(_ expression: PredicateExpression, _ change: HistoryChange, _ transaction: HistoryTransaction) -> EvaluatedValue {
        switch expression {
        case .constant(let value): constant(value)
        case .collection(let elements): .list(elements.map { Self.value($0, change, transaction) })
        case .keyPath(.evaluatedObject, let path): Key(path)?.value(change, transaction) ?? .stored(.null)
        default: .stored(.null)
        }
    }

    private static func constant(_ value: PredicateValue) -> EvaluatedValue {
        switch value {
        case .attribute(let attribute): .stored(attribute.databaseValue)
        case .object(let id): .object(id)
        case .collection(let elements): .list(elements.map(constant))
        }
    }
}
