import DataStore
import Foundation
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
            #expect(try ObjectPredicate(format: predicate.predicateFormat) == predicate, "\(format) printed as \(predicate)")
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
                      "ANY", "SUBQUERY", "CAST", "BETWEEN", "IN", "name", "5", "-", "1e", "0x", "\\", "\u{0}", "é", " "]
        for _ in 0..<20_000 {
            let format = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let arguments: [any PredicateArgument] = (0..<Int.random(in: 0...2, using: &random)).map { _ in "v" }
            if let predicate = try? ObjectPredicate(format: format, arguments: arguments) {
                _ = predicate.predicateFormat
            }
        }
    }
}
