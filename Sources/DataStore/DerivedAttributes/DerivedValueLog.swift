import DataModel
import Foundation
import GRDB
import StoreSchema

/// The derived-attribute values the store's triggers computed while a save wrote (format reference
/// §2.8). Each trigger reports every row it changes through a SQL function registered here on every
/// connection, so the saving context can show the new values without reading the rows again.
final class DerivedValueLog: Sendable {
    /// One derived value a trigger wrote.
    struct Report: Sendable {
        var entityNumber: Int
        var primaryKey: Int64
        var attribute: String
        var value: DatabaseValue

        /// Which value it reports: the object's row and the attribute.
        var reportedValue: ReportedValue { ReportedValue(entityNumber: entityNumber, primaryKey: primaryKey, attribute: attribute) }
    }

    /// A derived value of one row, which several reports of a save may compute in turn.
    struct ReportedValue: Hashable {
        var entityNumber: Int
        var primaryKey: Int64
        var attribute: String
    }

    private let reports = Locked<[Report]>([])

    /// The reports since the last call, oldest first.
    func take() -> [Report] {
        reports.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }

    /// Registers the reporting functions (both are Core Data's names, so stores Core Data wrote
    /// with derived attributes stay writable), `NSCoreDataNow()` and the string derivations.
    func register(in db: Database) {
        for name in [DerivedAttributeFunctions.updatedValue, DerivedAttributeFunctions.insertedValue] {
            db.add(function: DatabaseFunction(name, argumentCount: 5, pure: false) { [reports] values in
                guard let entityNumber = Int.fromDatabaseValue(values[1]), let primaryKey = Int64.fromDatabaseValue(values[2]),
                      let attribute = String.fromDatabaseValue(values[3])
                else { return nil }
                reports.withLock { $0.append(Report(entityNumber: entityNumber, primaryKey: primaryKey, attribute: attribute, value: values[4])) }
                return nil
            })
        }
        db.add(function: Self.now)
        db.add(function: Self.text)
    }

    /// `NSCoreDataNow()`: seconds since 2001-01-01 00:00:00 UTC, as dates are stored.
    private static let now = DatabaseFunction(DerivedAttributeFunctions.now, argumentCount: 0, pure: false) { _ in
        Date().timeIntervalSinceReferenceDate
    }

    /// `DSDERIVEDTEXT(name, text)`: the text derivation `name` of `text`. Other values pass unchanged.
    private static let text = DatabaseFunction(DerivedAttributeFunctions.text, argumentCount: 2, pure: true) { values in
        guard let name = String.fromDatabaseValue(values[0]), case .string(let text) = values[1].storage,
              let derivation = DerivationExpression.TextDerivation(rawValue: name)
        else { return values[1] }
        return derivation.applied(to: text)
    }
}
