import DataStore
import Foundation
import TestSupport
import Testing

/// The string operators with `[c]`, `[d]` and `[cd]`, which an ASCII value meets without a folded
/// copy: the answers equal the definition — fold both sides whole, then compare their UTF-8 bytes.
@Suite struct TextMatchingTests {
    static let operators: [ComparisonOperator] = [.beginsWith, .endsWith, .contains]
    static let optionSets: [StringOptions] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]

    /// The definition: NFD, marks dropped for `[d]`, lowercased for `[c]`, NFC.
    static func definedFold(_ text: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where !(options.contains(.diacriticInsensitive) && scalar.properties.generalCategory == .nonspacingMark) {
            scalars.append(scalar)
        }
        let text = String(scalars)
        return (options.contains(.caseInsensitive) ? text.lowercased() : text).precomposedStringWithCanonicalMapping
    }

    static func definedMatch(_ value: String, _ comparisonOperator: ComparisonOperator, _ pattern: String, _ options: StringOptions) -> Bool {
        let value = Array(definedFold(value, options).utf8), pattern = Array(definedFold(pattern, options).utf8)
        guard !pattern.isEmpty, pattern.count <= value.count else { return false }
        switch comparisonOperator {
        case .beginsWith: return value.starts(with: pattern)
        case .endsWith: return value.reversed().starts(with: pattern.reversed())
        default: return (0...(value.count - pattern.count)).contains { Array(value[$0..<($0 + pattern.count)]) == pattern }
        }
    }

    @Test func examples() {
        #expect(ComparisonOperator.contains.matches("Item number 42", "ITEM", options: .caseInsensitive))
        #expect(!ComparisonOperator.contains.matches("Item number 42", "ITEM"))
        #expect(ComparisonOperator.contains.matches("Item number 42", "ÍTEM", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!ComparisonOperator.contains.matches("Item number 42", "ÍTEM", options: .caseInsensitive))
        #expect(ComparisonOperator.beginsWith.matches("Café", "cafe", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(ComparisonOperator.endsWith.matches("CAFE", "é", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!ComparisonOperator.endsWith.matches("CAFE", "é", options: .caseInsensitive))
        // A mark after an ASCII letter composes with it, so the ASCII prefix no longer matches alone.
        #expect(!ComparisonOperator.contains.matches("cafe\u{301}", "cafe", options: .caseInsensitive))
        #expect(ComparisonOperator.contains.matches("cafe\u{301}", "cafe", options: .diacriticInsensitive))
        #expect(!ComparisonOperator.contains.matches("anything", "", options: .caseInsensitive))
        #expect(!ComparisonOperator.beginsWith.matches("ab", "abc", options: .caseInsensitive))
        #expect(StringOptions.caseInsensitive.fold("MiXeD ascii 9") == "mixed ascii 9")
        #expect(StringOptions.caseInsensitive.fold("lower") == "lower")
    }

    @Test func randomStrings_matchAsDefined() {
        var random = SplitMix64(seed: 0x7E47)
        let pieces = ["a", "A", "b", "Z", "e", "E", "é", "É", "e\u{301}", "ß", "SS", "ı", "I", "i", "İ", "日", " ", "1", "-", "\u{301}", "ä", "Å"]
        func text(_ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<20_000 {
            // Mostly ASCII values, as most stored text is, and any pattern.
            var value = text(0...8)
            if Int.random(in: 0..<2, using: &random) == 0 { value = String(value.unicodeScalars.filter(\.isASCII).map(Character.init)) }
            let pattern = text(0...3)
            let comparisonOperator = Self.operators.randomElement(using: &random)!
            let options = Self.optionSets.randomElement(using: &random)!
            let expected = Self.definedMatch(value, comparisonOperator, pattern, options)
            #expect(
                comparisonOperator.matches(value, pattern, options: options) == expected,
                "\(value.debugDescription) \(comparisonOperator) \(pattern.debugDescription) \(options)")
            #expect(comparisonOperator.matches(value, options.fold(pattern), options: options, patternIsFolded: true) == expected)
            #expect(options.fold(value) == Self.definedFold(value, options))
        }
    }
}
