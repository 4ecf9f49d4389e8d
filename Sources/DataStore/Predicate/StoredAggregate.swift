import GRDB

/// SQLite's aggregate functions in Swift, over the non-null stored values of a column: what
/// in-memory evaluation computes where the store's SQL computes `TOTAL`, `SUM`, `AVG`, `MIN`, `MAX`.
enum StoredAggregate {
    /// `COUNT`, `TOTAL` (a real sum, 0.0 for no values), `AVG`, `MIN` and `MAX`.
    static func value(_ function: AggregateFunction, _ values: [DatabaseValue]) -> DatabaseValue {
        switch function {
        case .count: return Int64(values.count).databaseValue
        case .sum: return total(values).databaseValue
        case .average: return values.isEmpty ? .null : (total(values) / Double(values.count)).databaseValue
        case .minimum: return values.min { StoredValueOrder.compare($0, $1) < 0 } ?? .null
        case .maximum: return values.max { StoredValueOrder.compare($0, $1) < 0 } ?? .null
        }
    }

    /// `COALESCE(SUM(…), 0)` over integers: exact, `nil` when it overflows (SQLite's
    /// "integer overflow" error).
    static func integerSum(_ values: [DatabaseValue]) -> Int64? {
        var sum: Int64 = 0
        for value in values {
            guard case .int64(let integer) = value.storage else { continue }
            let (result, overflow) = sum.addingReportingOverflow(integer)
            if overflow { return nil }
            sum = result
        }
        return sum
    }

    private static func total(_ values: [DatabaseValue]) -> Double {
        values.reduce(0) { sum, value in
            switch value.storage {
            case .int64(let integer): sum + Double(integer)
            case .double(let real): sum + real
            default: sum
            }
        }
    }
}
