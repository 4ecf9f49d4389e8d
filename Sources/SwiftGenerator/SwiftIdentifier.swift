import DataModel

/// Turns model names into Swift identifiers that always compile.
enum SwiftIdentifier {
    /// `name` with every character Swift does not allow in an identifier replaced by `_`, and a `_`
    /// in front when it starts with a digit. Letters of any script stay: Swift accepts them.
    static func sanitized(_ name: String) -> String {
        // Nearly every model name is ASCII and already valid: checked on bytes, as Character
        // properties cost a Unicode table lookup each.
        if let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
           name.utf8.allSatisfy({ $0 < 0x80 && ($0 == UInt8(ascii: "_") || isASCIILetterOrDigit($0)) }) {
            return name
        }
        var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.isEmpty || result.first!.isNumber { result = "_" + result }
        return result
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `identifier` in backticks when it is a keyword (`default` → `` `default` ``).
    static func escaped(_ identifier: String) -> String {
        ReservedNames.swiftKeywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// A member name for the property `name`: sanitised, with `_` appended while it clashes with a
    /// member of `ManagedObject` or one of `taken`.
    static func memberName(for name: String, avoiding taken: Set<String>) -> String {
        var result = sanitized(name)
        if ReservedNames.objectMembers.contains(result) || generatedMembers.contains(result) { result += "_" }
        while taken.contains(result) { result += "_" }
        return result
    }

    /// A type name for the class `name`: sanitised, with `Entity` appended when it is a type the
    /// generated code uses unqualified (`Data`, `Date`, `Type`) or a keyword.
    static func typeName(for name: String) -> String {
        let result = sanitized(name)
        if ReservedNames.typeNames.contains(result) || ReservedNames.swiftKeywords.contains(result)
            || generatedMembers.contains(result) {
            return result + "Entity"
        }
        return result
    }

    /// A static member name for a model version or entity `name`, in lower camel case (`Everything 1` →
    /// `everything1`, `Model 2.1` → `model2_1`, `CDE Model` → `cdeModel`, `FailedBankInfo` →
    /// `failedBankInfo`): sanitised, with `_`
    /// appended while it is a keyword, a name with a meaning after a dot (`self`, `Type`) or one of
    /// `taken`, so it reads without backticks.
    static func lowerCamelMemberName(for name: String, avoiding taken: Set<String>) -> String {
        let words = name.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        var result = ""
        for word in words {
            if result.isEmpty {
                result = lowercasingInitialCapitals(word)
            } else {
                // `2.1` stays apart as `2_1`; other words join capitalised.
                if result.last!.isNumber, word.first!.isNumber { result += "_" }
                result += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        result = sanitized(result)
        while ReservedNames.swiftKeywords.contains(result) || ReservedNames.objectMembers.contains(result)
            || taken.contains(result) {
            result += "_"
        }
        return result
    }

    /// `word` with its leading capitals in lower case, but for the one that starts the next word:
    /// `Everything` → `everything`, `CDEModel` → `cdeModel`, `URL` → `url`.
    private static func lowercasingInitialCapitals(_ word: String) -> String {
        let characters = Array(word)
        var count = characters.prefix { $0.isUppercase }.count
        if count > 1, count < characters.count, characters[count].isLowercase { count -= 1 }
        return String(characters[..<count]).lowercased() + String(characters[count...])
    }

    /// Names generated classes declare themselves.
    static let generatedMembers: Set<String> = ["entityName", "generatedModel", "visitStoredAttributes", "write"]
}
