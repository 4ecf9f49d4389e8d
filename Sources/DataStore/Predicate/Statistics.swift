import Foundation

/// `median:`, `mode:` and `stddev:` of `NSExpression`, over numbers: what a predicate compares
/// when it computes them of a collection `{…}`.
struct Statistics {
    /// The numbers, in the order given.
    let values: [AttributeValue]

    init(_ values: [AttributeValue]) {
        self.values = values
    }

    private var reals: [Double] { values.compactMap { Double(attributeValue: $0) } }

    /// The middle value once sorted, as it was given (`2` for `{3, 1, 2}`); between two middle
    /// values, their mean. `nil` for no values.
    var median: AttributeValue {
        let sorted = values.sorted { Double(attributeValue: $0)! < Double(attributeValue: $1)! }
        guard !sorted.isEmpty else { return .null }
        if sorted.count % 2 == 1 { return sorted[sorted.count / 2] }
        let (lower, upper) = (Double(attributeValue: sorted[sorted.count / 2 - 1])!, Double(attributeValue: sorted[sorted.count / 2])!)
        return .double((lower + upper) / 2)
    }

    /// The values that occur most often, in the order they first occur (`{3}` for `{1, 2, 3, 3}`);
    /// numbers equal as numbers count as one (`1` and `1.0`).
    var modes: [AttributeValue] {
        var counts: [Double: (first: AttributeValue, count: Int)] = [:]
        var order: [Double] = []
        for value in values {
            let number = Double(attributeValue: value)!
            if counts[number] == nil { order.append(number) }
            counts[number, default: (value, 0)].count += 1
        }
        let most = counts.values.map(\.count).max() ?? 0
        return order.filter { counts[$0]!.count == most }.map { counts[$0]!.first }
    }

    /// The population standard deviation (the square root of the mean squared distance from the
    /// mean), `nil` for no values.
    var standardDeviation: AttributeValue {
        let reals = reals
        guard !reals.isEmpty else { return .null }
        let mean = reals.reduce(0, +) / Double(reals.count)
        let variance = reals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(reals.count)
        return .double(variance.squareRoot())
    }
}
