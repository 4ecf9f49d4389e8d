/// Splits a predicate format string into tokens.
struct PredicateLexer {
    private let characters: [Character]
    private let format: String
    private var index = 0

    init(_ format: String) {
        self.format = format
        characters = Array(format)
    }

    static func tokens(of format: String) throws(PredicateSyntaxError) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        repeat {
            tokens.append(try lexer.next())
        } while tokens.last?.kind != .end
        return tokens
    }

    private func error(_ message: String, at index: Int) -> PredicateSyntaxError {
        PredicateSyntaxError(message: message, column: index + 1, format: format)
    }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    /// Whether `text` reads as one key of a key path: a word, or `@` and a word (a collection operator).
    static func isKey(_ text: String) -> Bool {
        let word = text.first == "@" ? text.dropFirst() : Substring(text)
        guard let first = word.first, isWordStart(first) else { return false }
        return word.allSatisfy(isWordPart)
    }

    private static func isWordStart(_ character: Character) -> Bool {
        character.isLetter || character == "_"
    }

    private static func isWordPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private mutating func word() -> String {
        let start = index
        while let character = peek(), Self.isWordPart(character) { index += 1 }
        return String(characters[start..<index])
    }

    mutating func next() throws(PredicateSyntaxError) -> PredicateToken {
        while let character = peek(), character.isWhitespace { index += 1 }
        let start = index
        func token(_ kind: PredicateToken.Kind) -> PredicateToken { PredicateToken(kind: kind, column: start + 1) }
        guard let character = peek() else { return token(.end) }

        if Self.isWordStart(character) { return token(.word(word())) }
        // A number has no sign: `-` is always the operator, which the parser folds into a literal.
        if character.isASCII, character.isNumber { return token(.number(try number())) }
        switch character {
        case "\"", "'":
            return token(.string(try string(quote: character)))
        case "#", "$", "@":
            index += 1
            guard let next = peek(), Self.isWordStart(next) else {
                throw error("expected a name after '\(character)'", at: start)
            }
            let name = word()
            return token(character == "#" ? .escapedWord(name) : character == "$" ? .variable(name) : .collectionOperator(name))
        case "%":
            index += 1
            for specifier in ["@", "K", "lld", "ld", "lu", "lf", "d", "i", "u", "f"] where matches(specifier) {
                index += specifier.count
                return token(.specifier(specifier))
            }
            throw error("unknown format specifier '%\(peek().map(String.init) ?? "")'", at: start)
        default:
            for symbol in Self.symbols where matches(symbol) {
                index += symbol.count
                return token(.symbol(symbol))
            }
            throw error("unexpected character '\(character)'", at: start)
        }
    }

    /// Every symbol, each before any that begins it: `**` before `*`.
    private static let symbols = [
        "==", "!=", "<>", "<<", ">>", "<=", "=<", ">=", "=>", "&&", "||", "**", "(", ")", "{", "}", "[", "]", ",", ".", ":",
        "=", "<", ">", "!", "+", "-", "*", "/", "&", "|", "^", "~",
    ]

    private func matches(_ text: String) -> Bool {
        for (offset, character) in text.enumerated() where peek(offset) != character { return false }
        return true
    }

    /// A decimal or hexadecimal integer, or a floating-point number.
    private mutating func number() throws(PredicateSyntaxError) -> AttributeValue {
        let start = index
        if peek() == "0", peek(1) == "x" || peek(1) == "X" {
            index += 2
            let digits = index
            while let character = peek(), character.isHexDigit { index += 1 }
            let text = String(characters[digits..<index])
            guard let value = Int64(text, radix: 16) else { throw error("invalid hexadecimal number", at: start) }
            return .integer(value)
        }
        var isInteger = true
        while let character = peek(), character.isASCII, character.isNumber { index += 1 }
        if peek() == ".", let next = peek(1), next.isASCII, next.isNumber {
            isInteger = false
            index += 1
            while let character = peek(), character.isASCII, character.isNumber { index += 1 }
        }
        if peek() == "e" || peek() == "E" {
            let mark = index
            index += 1
            if peek() == "+" || peek() == "-" { index += 1 }
            if let digit = peek(), digit.isASCII, digit.isNumber {
                isInteger = false
                while let character = peek(), character.isASCII, character.isNumber { index += 1 }
            } else {
                index = mark
            }
        }
        let text = String(characters[start..<index])
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        guard value.isFinite else { throw error("number '\(text)' is out of range", at: start) }
        return .double(value)
    }

    /// A quoted string with the escapes `\n \t \r \0 \\ \' \" \uXXXX`.
    private mutating func string(quote: Character) throws(PredicateSyntaxError) -> String {
        let start = index
        index += 1
        var text = ""
        while let character = peek() {
            index += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard let escaped = peek() else { break }
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                let digits = String(characters[index..<min(index + 4, characters.count)])
                guard digits.count == 4, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw error("invalid \\u escape", at: index - 2)
                }
                index += 4
                text.unicodeScalars.append(scalar)
            default: text.append(escaped)
            }
        }
        throw error("unterminated string", at: start)
    }
}
