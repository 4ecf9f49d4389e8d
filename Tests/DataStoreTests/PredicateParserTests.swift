import DataStore
import Foundation
import PredicateLanguage
import GeneratedBooks
import GeneratedFailedBanks
import TestSupport
import Testing

/// The predicate format language: what it reads, how it prints, and the column of every error.
@Suite struct PredicateParserTests {
    static func syntaxError(_ format: String, _ arguments: any PredicateArgument...) -> PredicateSyntaxError? {
        switch Result(catching: { () throws(PredicateSyntaxError) in try ObjectPredicate(format: format, arguments: arguments) }) {
        case .success: nil
        case .failure(let error): error
        }
    }

    @Test func errors_pointAtTheColumn() {
        #expect(Self.syntaxError("price < 500 AND (name == %@", "x")?.description == "expected ')' at column 17 in \"price < 500 AND (name == %@\"")
        #expect(Self.syntaxError("price <")?.description == "expected a key path or a value, found end of input at column 8 in \"price <\"")
        #expect(Self.syntaxError("price ~ 5")?.column == 7)
        #expect(Self.syntaxError("name == 'open")?.message == "unterminated string")
        #expect(Self.syntaxError("name == %@")?.message == "no argument for '%@' (0 given)")
        #expect(Self.syntaxError("name == %@", "a", "b")?.message == "2 arguments given, the format uses 1")
        #expect(Self.syntaxError("count == %d", "three")?.message.hasPrefix("argument 1 for %d must be an integer") == true)
        #expect(Self.syntaxError("name BEGINSWITH[x] 'a'")?.column == 17)
        #expect(Self.syntaxError("size BETWEEN 5")?.message == "BETWEEN needs two bounds: {low, high}")
        #expect(Self.syntaxError("name == %q")?.message == "unknown format specifier '%q'")
        #expect(Self.syntaxError("in == 5")?.message.contains("write #in") == true)
        #expect(Self.syntaxError("size < 1e999")?.description == "number '1e999' is out of range at column 8 in \"size < 1e999\"")
        #expect(Self.syntaxError("size < %K", "*")?.message == "argument 1 for %K is not a key path: \"*\"")
    }

    @Test func theWholeLanguage_parsesAndPrintsBack() throws {
        let formats = [
            "price < 500 AND (name == \"x\" OR NOT name BEGINSWITH[cd] \"A\")",
            "TRUEPREDICATE", "FALSEPREDICATE", "name == nil", "SELF == $OBJECT",
            "price BETWEEN {1, 5}", "name IN {\"a\", \"b\"}", "name LIKE[c] \"?a*\"", "name MATCHES \"[a-z]+\"",
            "ANY books.price < 5", "ALL books.title CONTAINS[d] \"e\"", "NONE tags.name == \"x\"",
            "books.@count > 2", "books.@sum.price >= 10.5", "books.@avg.price < 3.0", "books.@max.title == \"z\"",
            "SUBQUERY(books, $b, $b.price < 5 AND $b.author.name == \"Jo\").@count > 0",
            "details.closeDate > CAST(0.0, \"NSDate\")", "#index == 3", "flag == YES",
            "price < CAST(\"2.5\", \"NSDecimalNumber\") AND size > CAST(\"-inf\", \"NSNumber\")",
            "cover == CAST(\"AAE=\", \"NSData\") OR website == CAST(\"https://example.com\", \"NSURL\")",
            "identifier == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\") AND pages IN %@",
        ]
        for format in formats {
            let predicate = try ObjectPredicate(format: format, arguments: format.contains("%@") ? [[1, 2]] : [])
            #expect(try ObjectPredicate(format: predicate.description) == predicate, "\(format) printed as \(predicate)")
        }
        #expect(try ObjectPredicate(format: "a = 1 && b =< 2 || c <> 3 AND !(d => 4)")
            == ObjectPredicate(format: "(a == 1 AND b <= 2) OR (c != 3 AND NOT d >= 4)"))
        #expect(try ObjectPredicate(format: "some x.y == 1") == ObjectPredicate(format: "ANY x.y == 1"))
        #expect(try ObjectPredicate(format: "name == 'it\\'s \\u00e9'") == ObjectPredicate(format: "name == %@", "it's é"))
        #expect(try ObjectPredicate(format: "%K == %d AND size < %f AND n == %lld", "a.b", 3, 2.5, Int64(9))
            == ObjectPredicate(format: "a.b == 3 AND size < 2.5 AND n == 9"))
        #expect(try ObjectPredicate(format: "x == 0x1F AND y == -2 AND z == 1e3") == ObjectPredicate(format: "x == 31 AND y == -2 AND z == 1000.0"))
    }

    @Test func operandsInParentheses_areTheOperands() throws {
        #expect(try ObjectPredicate(format: "(name) == 'x'") == ObjectPredicate(format: "name == 'x'"))
        #expect(try ObjectPredicate(format: "name IN (%@)", ["a", "b"]) == ObjectPredicate(format: "name IN {'a', 'b'}"))
        #expect(try ObjectPredicate(format: "((price)) < (5) AND ((name == 'x'))") == ObjectPredicate(format: "price < 5 AND name == 'x'"))
        #expect(try ObjectPredicate(format: "NOT (books.@count) > ((2))") == ObjectPredicate(format: "NOT books.@count > 2"))
        #expect(Self.syntaxError("(name) == ")?.message == "expected a key path or a value, found end of input")
        #expect(Self.syntaxError("(name")?.message == "expected a comparison operator, found end of input")
    }

    /// Operators bind as Foundation's parser binds them — `|` loosest, then `^`, `&`, shifts,
    /// `+ -`, `* /`, `**` tightest, all grouping to the left, comparisons looser than all — and
    /// print back with only the parentheses the grouping needs.
    @Test func operatorsAndFunctions_parseAsFoundationGroupsThem_andPrintBack() throws {
        typealias Expression = PredicateLanguage.PredicateExpression
        func key(_ name: String) -> Expression { .key(name) }
        func number(_ value: Int64) -> Expression { .constant(.attribute(.integer(value))) }
        func lhs(_ format: String) throws -> Expression {
            guard case .comparison(let comparison) = try ObjectPredicate(format: format) else { return .evaluatedObject }
            return comparison.lhs
        }
        #expect(try lhs("a + b * c == 1") == .function(.add, [key("a"), .function(.multiply, [key("b"), key("c")])]))
        #expect(try lhs("a - b - c == 1") == .function(.subtract, [.function(.subtract, [key("a"), key("b")]), key("c")]))
        #expect(try lhs("2 ** 3 ** 2 == 64") == .function(.power, [.function(.power, [number(2), number(3)]), number(2)]), "left to right")
        #expect(try lhs("flags & 4 == 4") == .function(.bitwiseAnd, [key("flags"), number(4)]))
        #expect(try lhs("a | b ^ c & d << 1 == 0")
            == .function(.bitwiseOr, [key("a"), .function(.bitwiseXor, [key("b"), .function(.bitwiseAnd, [key("c"), .function(.leftShift, [key("d"), number(1)])])])]))
        #expect(try lhs("-price * 2 < 0") == .function(.subtract, [number(0), .function(.multiply, [key("price"), number(2)])]), "minus binds as 0 - x")
        #expect(try lhs("-5 < x") == number(-5), "a negative literal")
        #expect(try lhs("x - -5 == 1") == .function(.subtract, [key("x"), number(-5)]))
        #expect(try lhs("~flags == 0") == .function(.onesComplement, [key("flags")]))
        #expect(try ObjectPredicate(format: "bitwiseAnd:with:(flags, %d) == %d", 4, 4) == ObjectPredicate(format: "(flags & 4) == 4"))
        #expect(try lhs("abs(x) == 1") == .function(.abs, [key("x")]))
        #expect(try lhs("abs:(x) == 1") == .function(.abs, [key("x")]))
        #expect(try lhs("now() > 1") == .function(.now, []))
        #expect(try lhs("books[SIZE] > 1") == .index(key("books"), .size))
        #expect(try lhs("TERNARY(a > 1, b, 2) == 3") == .conditional(ObjectPredicate(format: "a > 1"), key("b"), number(2)))

        let formats = [
            "(flags & 4) != 0", "flags & %d == %d", "price * quantity > 100", "pages - 1 > 10", "-price < 0", "-(a + b) == 1",
            "(-a) * b == 1", "a + (-b) == 1", "2 ** 3 ** 2 == 64", "2 ** (3 ** 2) == 512", "~flags == -1", "a - (b - c) == 1",
            "(a | b) & c == 0", "a << 2 >> 1 == 4", "0 - 5 == -5", "modulus:by:(pages, 2) == 0", "raise:toPower:(x, 2) > 1",
            "lowercase:(name) ==[c] \"x\"", "length:(name) > 3", "now() > added", "TERNARY(price > 5, 1, 2) == 1",
            "books[SIZE] > 2", "{1, 2, 3}[LAST] == 3", "{1, 2}[0] == 1", "{1, 2}[FIRST] < x", "sum:(books.price) > 10",
            "count:(books) == max:({1, 2})", "noindex:(name) == \"a\"", "ANY books.price * 2 > 1 OR abs(-3) == 3",
        ]
        for format in formats {
            let predicate = try ObjectPredicate(format: format, arguments: format.contains("%d") ? [4, 4] : [])
            #expect(try ObjectPredicate(format: predicate.description) == predicate, "\(format) printed as \(predicate)")
        }
        #expect(try ObjectPredicate(format: "a+b*c==1").predicateFormat == "a + b * c == 1")
        #expect(try ObjectPredicate(format: "(a+b)*c==1").predicateFormat == "(a + b) * c == 1")
        #expect(try ObjectPredicate(format: "-(a)==1").predicateFormat == "-a == 1")
        // A negative number from an argument keeps its grouping: `-2 * 2` would read back as `-(2 * 2)`.
        for (format, printed) in [("a - %d * 2 == 1", "a - (-2) * 2 == 1"), ("a * 2 + %d == 1", "a * 2 + (-2) == 1"), ("%d ** 2 == 4", "(-2) ** 2 == 4")] {
            let predicate = try ObjectPredicate(format: format, arguments: [-2])
            #expect(predicate.predicateFormat == printed)
            #expect(try ObjectPredicate(format: predicate.description) == predicate, "\(format) printed as \(predicate)")
        }
        let keyOfNegative = try ObjectPredicate(format: "%@.pageCount == 1", arguments: [-2])
        #expect(keyOfNegative.predicateFormat == "(-2).pageCount == 1")
        #expect(try ObjectPredicate(format: keyOfNegative.description) == keyOfNegative)
        let scaled = ObjectExpression.arithmetic(.multiply, .constant(.integer(-2)), .key("price"))
        #expect(scaled.description == "((-2) * price)")
        #expect(try ObjectExpression(format: scaled.description) == scaled)
        #expect(Self.syntaxError("LOWERCASE:(name) == 1")?.message.hasPrefix("unknown function 'LOWERCASE:'") == true, "selectors are case-sensitive")
    }

    /// `predicateFormat` is Foundation's text: Booleans print as the numbers Foundation keeps them
    /// as, and read back as those numbers; `description` reads back as the same predicate.
    @Test func predicateFormat_isFoundationsText() throws {
        let predicate = try ObjectPredicate(format: "isAvailable == YES AND ANY tags.name IN {'a', NO} AND TERNARY(flag = NO, 1, 2) > 0")
        #expect(predicate.predicateFormat == #"isAvailable == 1 AND ANY tags.name IN {"a", 0} AND TERNARY(flag == 0, 1, 2) > 0"#)
        #expect(predicate.description == #"isAvailable == YES AND ANY tags.name IN {"a", NO} AND TERNARY(flag == NO, 1, 2) > 0"#)
        #expect(try ObjectPredicate(format: predicate.description) == predicate)
        #expect(try ObjectPredicate(format: predicate.predicateFormat)
            == ObjectPredicate(format: "isAvailable == 1 AND ANY tags.name IN {'a', 0} AND TERNARY(flag == 0, 1, 2) > 0"))
    }

    /// `FUNCTION(receiver, "selector", …)` reads and prints back, as mapping models' value
    /// expressions write it; a fetch refuses it, since no store runs an object's method.
    @Test func methodCalls_readAndPrintBack_butNoStoreRunsThem() throws {
        let call = try PredicateExpression(format: #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AToB", $source.items)"#)
        #expect(call == .method(.variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:", [
            .constant(.attribute(.string("AToB"))), .keyPath(.variable("source"), ["items"]),
        ]))
        #expect(try PredicateExpression(format: call.description) == call)
        let predicate = try ObjectPredicate(format: #"FUNCTION(SELF, "isFavorite") == YES"#)
        let context = try TestStores.newStore(TestStores.library).newContext()
        #expect {
            try context.count(for: FetchRequest<ManagedObject>(entityName: "Book", predicate: predicate))
        } throws: { error in
            guard case ContextError.invalidPredicate(let message) = error else { return false }
            return message.contains("calls a method of an object, which a store cannot run")
        }
    }

    @Test func functionErrors_sayWhatIsWrong_whereItIs() {
        #expect(Self.syntaxError("abs(1, 2) == 1")?.description == "abs: takes 1 argument, not 2 at column 1 in \"abs(1, 2) == 1\"")
        #expect(Self.syntaxError("x > frobnicate(y)")?.message.hasPrefix("unknown function 'frobnicate'") == true)
        #expect(Self.syntaxError("x > frobnicate(y)")?.column == 5)
        #expect(Self.syntaxError("FUNCTION(x, y) == 1")?.message.hasPrefix("FUNCTION's second argument is the method's name") == true)
        #expect(Self.syntaxError("books[NEXT] == 1")?.message == "expected FIRST, LAST, SIZE or an integer index, found 'NEXT'")
        #expect(Self.syntaxError("TERNARY(a > 1, 2) == 1")?.message == "expected ',', found ')'")
        #expect(Self.syntaxError("a ** == 1")?.column == 6)
        #expect(Self.syntaxError("$a := 1")?.column == 4, "an assignment is no comparison")
    }

    @Test func typedPredicates_equalTheParsedOnes() throws {
        let cheapWar = Book.price < 500 && Book.title.contains("war", options: .caseInsensitive)
        #expect(cheapWar == (try ObjectPredicate(format: "price < 500.0 AND title CONTAINS[c] 'war'")))
        let notEmma = !(Book.title == "Emma") || Book.price.isBetween(1...2)
        #expect(notEmma == (try ObjectPredicate(format: "NOT title == 'Emma' OR price BETWEEN {1.0, 2.0}")))
        let coasts = FailedBankInfo.state.isIn(["CA", "NY"]) && FailedBankInfo.name.isNil
        #expect(coasts == (try ObjectPredicate(format: "state IN {'CA', 'NY'} AND name == nil")))
        let first = FailedBankInfo.name.like("First*", options: [.caseInsensitive, .diacriticInsensitive])
        #expect(first == (try ObjectPredicate(format: "name LIKE[cd] 'First*'")))
    }

    @Test func randomInput_neverCrashesTheParser() {
        var random = SplitMix64(seed: 42)
        let pieces = ["(", ")", "{", "}", "'", "\"", "%@", "%K", "$x", "@count", "#", ".", ",", "[cd]", "==", "<", "AND", "OR", "NOT",
                      "ANY", "SUBQUERY", "CAST", "BETWEEN", "IN", "name", "5", "-", "1e", "0x", "\\", "\u{0}", "é", " ",
                      "+", "*", "**", "&", "|", "^", "<<", ">>", "~", ":", "abs", "now()", "TERNARY", "[SIZE]", "[0]", "modulus:by:"]
        for _ in 0..<20_000 {
            let format = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let arguments: [any PredicateArgument] = (0..<Int.random(in: 0...2, using: &random)).map { _ in "v" }
            if let predicate = try? ObjectPredicate(format: format, arguments: arguments) {
                _ = predicate.predicateFormat
            }
        }
    }
}
