import Foundation

/// The string operators and modifiers, defined once: the store's SQL functions call these, and
/// in-memory evaluation calls them too, so both give the same answer for every string.
///
/// Without modifiers, strings compare by their UTF-8 bytes, as SQLite does. With `[c]` or `[d]`,
/// both sides are first decomposed (NFD); `[d]` then drops combining marks, `[c]` lowercases, and
/// the result is recomposed (NFC), so that `é` and `e` + U+0301 are one character either way.
enum TextMatching {
    static func fold(_ text: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return text }
        if isASCII(text) {
            // ASCII has no combining marks and lowercases byte by byte.
            return options.contains(.caseInsensitive) ? lowercasedASCII(text) : text
        }
        var folded = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where !(options.contains(.diacriticInsensitive) && scalar.properties.generalCategory == .nonspacingMark) {
            folded.append(scalar)
        }
        let result = String(folded)
        return (options.contains(.caseInsensitive) ? result.lowercased() : result).precomposedStringWithCanonicalMapping
    }

    /// Whether `value op pattern` holds for one of the string operators. A constant pattern comes
    /// already folded (`patternIsFolded`), so that it is folded once per fetch, not once per row.
    static func matches(_ value: String, _ comparisonOperator: ComparisonOperator, _ pattern: String, options: StringOptions, patternIsFolded: Bool = false) -> Bool {
        if comparisonOperator == .matches {
            return RegularExpressions.matches(fold(value, options.subtracting(.caseInsensitive)), pattern: pattern, caseInsensitive: options.contains(.caseInsensitive))
        }
        var pattern = patternIsFolded ? pattern : fold(pattern, options)
        switch comparisonOperator {
        case .beginsWith, .endsWith, .contains:
            // An ASCII value is folded byte by byte as it is searched, without a folded copy: this
            // runs once per row a string predicate judges.
            let foldsAsSearched = options.isEmpty || isASCII(value)
            var value = foldsAsSearched ? value : fold(value, options)
            return value.withUTF8 { bytes in
                pattern.withUTF8 { find($0, in: bytes, comparisonOperator, lowercasing: foldsAsSearched && options.contains(.caseInsensitive)) }
            }
        case .like: return like(Array(fold(value, options).unicodeScalars), Array(pattern.unicodeScalars))
        default: return false
        }
    }

    /// Whether `haystack` (lowercased byte by byte when `lowercasing`) begins with, ends with or
    /// contains `needle`, by `comparisonOperator`; never for an empty needle.
    private static func find(
        _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, _ comparisonOperator: ComparisonOperator,
        lowercasing: Bool
    ) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        func found(at start: Int) -> Bool {
            guard lowercasing else { return memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 }
            for index in needle.indices where lowercased(haystack[start + index]) != needle[index] { return false }
            return true
        }
        switch comparisonOperator {
        case .beginsWith: return found(at: 0)
        case .endsWith: return found(at: haystack.count - needle.count)
        default:
            for start in 0...(haystack.count - needle.count)
            where (lowercasing ? lowercased(haystack[start]) : haystack[start]) == first && found(at: start) {
                return true
            }
            return false
        }
    }

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// ASCII `text` lowercased: itself when it has no capital letters.
    private static func lowercasedASCII(_ text: String) -> String {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.contains(where: { lowercased($0) != $0 }) else { return text }
            return String(unsafeUninitializedCapacity: bytes.count) { folded in
                for index in bytes.indices { folded[index] = lowercased(bytes[index]) }
                return bytes.count
            }
        } ?? String(decoding: text.utf8.map(lowercased), as: UTF8.self)
    }

    /// An ASCII byte lowercased; other bytes unchanged.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// `LIKE`: `?` is one character (Unicode scalar), `*` any run of them, and a backslash makes
    /// the character after it (`\*`, `\?`, `\\`) match itself.
    private static func like(_ value: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        let pattern = LikePattern.elements(of: pattern)
        var valueIndex = 0, patternIndex = 0
        var starPattern = -1, starValue = 0
        while valueIndex < value.count {
            if patternIndex < pattern.count, pattern[patternIndex].matches(value[valueIndex]) {
                valueIndex += 1
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == .anyRun {
                starPattern = patternIndex
                starValue = valueIndex
                patternIndex += 1
            } else if starPattern >= 0 {
                patternIndex = starPattern + 1
                starValue += 1
                valueIndex = starValue
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == .anyRun { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}

/// A `LIKE` pattern's elements.
private enum LikePattern: Equatable {
    case character(Unicode.Scalar)
    /// `?`.
    case anyCharacter
    /// `*`.
    case anyRun

    /// Whether the element matches one character.
    func matches(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .character(let character): character == scalar
        case .anyCharacter: true
        case .anyRun: false
        }
    }

    /// The elements of `pattern`; a backslash at the end matches itself.
    static func elements(of pattern: [Unicode.Scalar]) -> [LikePattern] {
        var elements: [LikePattern] = []
        var index = 0
        while index < pattern.count {
            switch pattern[index] {
            case "\\" where index + 1 < pattern.count:
                index += 1
                elements.append(.character(pattern[index]))
            case "?": elements.append(.anyCharacter)
            case "*": elements.append(.anyRun)
            case let scalar: elements.append(.character(scalar))
            }
            index += 1
        }
        return elements
    }
}

/// Compiled `MATCHES` patterns (ICU syntax, the whole string must match), cached by pattern.
enum RegularExpressions {
    private static let cache = Locked<[String: NSRegularExpression]>([:])

    static func expression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached }
        // The pattern must compile alone (so it is balanced) before it is anchored at both ends.
        guard (try? NSRegularExpression(pattern: pattern)) != nil, !pattern.contains("\\Q"),
              let compiled = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : []) else { return nil }
        cache.withLock { $0[key] = compiled }
        return compiled
    }

    static func matches(_ value: String, pattern: String, caseInsensitive: Bool) -> Bool {
        guard let expression = expression(pattern, caseInsensitive: caseInsensitive) else { return false }
        return expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }
}
