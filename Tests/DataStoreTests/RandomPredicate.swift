import DataStore
import Foundation
import class GeneratedBooks.Book
import Library
import TestSupport

/// Random predicate format strings with arguments over the Everything model's `Book`: every
/// attribute type, nil, `[cd]` string operators, LIKE and MATCHES, IN and BETWEEN, to-one paths,
/// object comparisons, ANY/ALL/NONE (over to-manys and over one value), aggregates and SUBQUERY,
/// constants on the left, text on the right of IN, escapes in LIKE, keys in parentheses,
/// operators, functions and `TERNARY`, fetches as arguments, nested AND/OR/NOT.
struct RandomPredicate {
    let objects: RandomLibrary.Objects
    var random: SplitMix64

    private enum Kind { case string, integer, bool, decimal, real, date, url, uuid, data }

    private static let attributes: [(key: String, kind: Kind)] = [
        ("title", .string), ("notes", .string), ("isbn", .string), ("author.name", .string), ("shelf.name", .string),
        ("fileSize", .integer), ("pageCount", .integer), ("wordCount", .integer), ("shelf.featured.pageCount", .integer), ("featuredOn.featured.fileSize", .integer),
        ("isAvailable", .bool), ("price", .decimal), ("weight", .real), ("rating", .real), ("published", .date), ("added", .date),
        ("website", .url), ("identifier", .uuid), ("cover", .data),
    ]
    private static let patterns = ["a", "é", "A", "pp", "ä", "STR", "ss", "日本", "*", "?", "'", ";", "", "e\u{301}", "-", "\""]
    private static let likePatterns = ["a*", "*e", "?pple", "*ä*", "c?f*", "*", "?", "*\u{301}", "file?", "*;*", #"*\**"#, #"\?*"#, #"*\\*"#, #"a\"#]
    private static let regexes = ["[a-z]+", ".*e", "caf.*", "A.*", ".*\\d+", "[^a]*", ".*(é|e\u{301}).*", "\\w+"]

    private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func value(_ kind: Kind) -> any PredicateArgument {
        if chance(10) { return String?.none }
        switch kind {
        case .string: return pick(RandomLibrary.strings + Self.patterns)
        case .integer: return Int.random(in: -3...5, using: &random)
        case .bool: return Bool.random(using: &random)
        case .decimal: return Decimal(Int.random(in: 0...12, using: &random)) / 4
        case .real: return Double(Int.random(in: -4...10, using: &random)) / 2
        case .date: return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -3...3, using: &random)) * 86_400)
        case .url: return pick(RandomLibrary.urls)
        case .uuid: return pick(RandomLibrary.uuids)
        case .data: return pick(RandomLibrary.blobs)
        }
    }

    private mutating func options() -> String { pick(["", "", "[c]", "[d]", "[cd]"]) }

    mutating func predicate(depth: Int) -> (String, [any PredicateArgument]) {
        if depth > 0, chance(40) {
            let (left, leftArguments) = predicate(depth: depth - 1)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return ("NOT (\(left))", leftArguments)
            default:
                let (right, rightArguments) = predicate(depth: depth - 1)
                return ("(\(left)) \(chance(50) ? "AND" : "OR") (\(right))", leftArguments + rightArguments)
            }
        }
        return comparison()
    }

    private mutating func comparison() -> (String, [any PredicateArgument]) {
        switch Int.random(in: 0..<18, using: &random) {
        case 0, 1, 2:
            let (key, kind) = pick(Self.attributes)
            let op = pick(["==", "!=", "<", "<=", ">", ">=", "=", "<>"])
            // `[c]` and `[d]` change nothing but comparisons of text; a key may stand in parentheses.
            return ("\(chance(20) ? "(\(key))" : key) \(op)\(chance(kind == .string ? 100 : 10) ? options() : "") %@", [value(kind)])
        case 3, 4:
            let key = pick(["title", "notes", "author.name", "shelf.name", "isbn"])
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return ("\(key) LIKE\(options()) %@", [pick(Self.likePatterns)])
            case 1: return ("\(key) MATCHES\(options()) %@", [pick(Self.regexes)])
            default: return ("\(key) \(pick(["BEGINSWITH", "ENDSWITH", "CONTAINS"]))\(options()) %@", [pick(Self.patterns + RandomLibrary.strings)])
            }
        case 5:
            let (key, kind) = pick(Self.attributes)
            let values = (0..<Int.random(in: 0...3, using: &random)).map { _ in value(kind) }
            return ("\(key) IN\(kind == .string ? options() : "") %@", [values.map(\.predicateValue)])
        case 6:
            let (key, kind) = pick(Self.attributes.filter { $0.kind != .bool })
            return ("\(key) BETWEEN %@", [[value(kind).predicateValue, value(kind).predicateValue]])
        case 7:
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return ("author == %@", [chance(20) ? ObjectID?.none : pick(objects.authors)])
            case 1: return ("shelf != %@", [chance(20) ? ObjectID?.none : pick(objects.shelves)])
            case 2: return ("SELF == %@", [pick(objects.books)])
            case 3: return ("SELF IN %@", [(0..<3).map { _ in pick(objects.books) }])
            case 4: return ("tags CONTAINS %@", [pick(objects.tags)])
            case 5: return ("%@ IN related", [pick(objects.books)])
            default: return ("featuredOn == nil", [])
            }
        case 8, 9:
            let quantifier = pick(["ANY", "ALL", "NONE", "SOME"])
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return ("\(quantifier) chapters.index \(pick(["<", ">=", "==", "!="])) %d", [Int.random(in: 0...4, using: &random)])
            case 1: return ("\(quantifier) tags.name \(pick(["BEGINSWITH", "CONTAINS", "==", "LIKE"]))\(options()) %@", [pick(Self.patterns + Self.likePatterns)])
            case 2: return ("\(quantifier) related.pageCount > %d", [Int.random(in: 0...5, using: &random)])
            case 3: return ("\(quantifier) recommendedBy.name == nil", [])
            case 4: return ("\(quantifier) chapters.title IN %@", [[pick(RandomLibrary.strings), pick(RandomLibrary.strings)]])
            default: return ("\(quantifier) related.author.name ==[cd] %@", [pick(RandomLibrary.strings)])
            }
        case 10, 11:
            let op = pick(["<", ">=", "==", "!="])
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return ("chapters.@count \(op) %d", [Int.random(in: 0...3, using: &random)])
            case 1: return ("chapters.@sum.index \(op) %d", [Int.random(in: 0...6, using: &random)])
            case 2: return ("chapters.@avg.index \(op) %f", [Double(Int.random(in: 0...8, using: &random)) / 2])
            case 3: return ("chapters.@max.index \(op) %d", [Int.random(in: 0...4, using: &random)])
            case 4: return ("chapters.@min.title \(op) %@", [pick(RandomLibrary.strings)])
            case 5: return ("tags.@count \(op) %d", [Int.random(in: 0...2, using: &random)])
            default: return ("related.@count \(op) author.books.@count", [])
            }
        case 12:
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return ("SUBQUERY(chapters, $c, $c.index >= %d AND $c.title != nil).@count > %d", [Int.random(in: 0...4, using: &random), Int.random(in: 0...1, using: &random)])
            case 1: return ("SUBQUERY(tags, $t, $t.name CONTAINS[c] %@).@count == 0", [pick(Self.patterns)])
            default: return ("SUBQUERY(related, $r, $r.pageCount > pageCount).@count >= 1", [])
            }
        case 13:
            let key = pick(["title", "notes", "author.name"])
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return ("%@ \(pick(["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"]))\(options()) \(key)", [pick(Self.patterns + RandomLibrary.strings)])
            case 1: return ("\(key) IN\(options()) %@", [pick(RandomLibrary.strings) + " " + pick(RandomLibrary.strings)])
            case 2: return ("%@ CONTAINS\(options()) \(key)", [[pick(RandomLibrary.strings), pick(RandomLibrary.strings)]])
            case 3: return ("\(pick(["ANY", "ALL", "NONE"])) \(key) \(pick(["==", "BEGINSWITH", "<"]))\(options()) %@", [pick(RandomLibrary.strings)])
            case 4: return ("%d IN %@", [Int.random(in: 0...3, using: &random), [1, 2.0]])
            default: return ("%d BETWEEN {1, %f}", [Int.random(in: 0...3, using: &random), Double(Int.random(in: 0...4, using: &random)) / 2])
            }
        case 14, 15:
            return computed()
        case 16:
            return fetched()
        default:
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return ("pageCount < fileSize", [])
            case 1: return ("title ==\(options()) notes", [])
            case 2: return ("wordCount != pageCount", [])
            case 3: return ("author.name == shelf.name", [])
            case 4: return ("published > CAST(%d, 'NSDate')", [Int.random(in: -2...2, using: &random) * 86_400])
            case 5: return ("title == 'apple' OR pageCount > 2", [])
            case 6: return (pick(["TRUEPREDICATE", "FALSEPREDICATE"]), [])
            default: return ("isAvailable == YES AND price >= 1.5", [])
            }
        }
    }

    /// A comparison of a computed value: arithmetic, bits, a function or `TERNARY`, on integers,
    /// reals, decimals and Booleans alike, dividing by zero and taking roots of negatives at times.
    private mutating func computed() -> (String, [any PredicateArgument]) {
        let integer = pick(["fileSize", "pageCount", "wordCount", "shelf.featured.pageCount", "isAvailable"])
        let number = pick(["weight", "rating", "price", "pageCount", "fileSize", "isAvailable"])
        let op = pick(["==", "!=", "<", ">="])
        func small(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        let operand: any PredicateArgument = chance(50) ? small(-2...4) : Double(small(-4...8)) / 2
        switch small(0...13) {
        case 0: return ("(\(integer) & %d) \(pick(["!=", "=="])) 0", [small(1...7)])
        case 1: return ("\(integer) \(pick(["|", "^", "<<", ">>", "&"])) %d \(op) %d", [small(-2...3), small(-2...8)])
        case 2: return ("\(number) \(pick(["+", "-", "*", "/"])) %@ \(op) %@", [operand, Double(small(-4...8)) / 2])
        case 3: return ("\(integer) / %d \(op) %d", [small(-2...3), small(-1...3)])
        case 4: return ("modulus:by:(\(integer), %d) \(op) %d", [small(-3...3), small(-1...2)])
        case 5: return chance(50) ? ("-\(number) \(op) %@", [operand]) : ("~\(integer) \(op) %d", [small(-6...1)])
        case 6: return ("\(pick(["abs", "ceiling", "floor", "trunc", "sqrt", "ln"]))(\(number)) \(op) %@", [operand])
        case 7: return ("\(number) ** %d \(op) %@", [small(0...3), operand])
        case 8: return ("TERNARY(\(integer) > %d, \(number), %@) \(op) %@", [small(0...3), operand, Double(small(-2...8)) / 2])
        case 9:
            let key = pick(["title", "notes", "author.name"])
            if chance(30) { return ("length:(\(key)) \(op) %d", [small(0...6)]) }
            if chance(30) { return ("\(number).stringValue \(pick(["==", "BEGINSWITH", "CONTAINS", "<"])) %@", [pick(["1", "2", "1.5", "-", "0", ".", "e"])]) }
            return ("\(pick(["lowercase:", "uppercase:"]))(\(key)) \(pick(["==", "BEGINSWITH", "<"]))\(options()) %@", [pick(RandomLibrary.strings)])
        case 10: return ("\(integer) * 2 + 1 \(op) \(pick(["fileSize", "pageCount", "wordCount"])) - %d", [small(-2...2)])
        case 11: return ("chapters[SIZE] + tags.@count \(op) %d", [small(0...4)])
        case 12:
            // Collections element by element; values of unlike kinds, never equal (two nils are).
            let equality = pick(["==", "!="])
            if chance(50) { return ("{\(integer), title} \(equality) {%d, %@}", [small(-1...4), pick(RandomLibrary.strings)]) }
            let text = pick(["title", "notes", "author.name"])
            return chance(50) ? ("\(text) \(equality) %d", [small(0...3)]) : ("\(text) \(equality) \(pick(["pageCount", "weight"]))", [])
        default:
            return ("\(number) \(op) \(pick(["median:", "stddev:", "average:"]))({%@, %@, %d})", [operand, operand, small(-2...4)])
        }
    }

    /// A comparison with a fetch's results (`NSFetchRequestExpression`): objects, values, an
    /// aggregate per group or of all, a count. Its own predicate compares numbers and objects, which
    /// every engine runs as SQL.
    private mutating func fetched() -> (String, [any PredicateArgument]) {
        func small(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        let filters: [(String, [any PredicateArgument])] = [
            ("pageCount > %d", [small(-1...3)]), ("isAvailable == YES", []), ("price >= %@", [Decimal(small(0...8)) / 4]),
            ("author == %@", [pick(objects.authors)]), ("weight < %@", [Double(small(-2...8)) / 2]), ("TRUEPREDICATE", []),
        ]
        let (filter, filterArguments) = pick(filters)
        let predicate = try! ObjectPredicate(format: filter, arguments: filterArguments)
        let group = pick(["author", "isAvailable", "pageCount", "shelf"])
        func books(_ result: PredicateFetch.Result) -> PredicateFetch {
            PredicateFetch(entityName: "Book", predicate: predicate, includesSubentities: chance(80), result: result)
        }
        switch small(0...9) {
        case 0: return ("\(chance(50) ? "NOT " : "")(SELF IN %@)", [books(.objects)])
        case 1: return ("SELF IN %@", [books(.values(keyPath: "SELF", function: pick([.max, .min]), groupedBy: chance(70) ? [group] : []))])
        case 8: return ("\(pick(["author", "shelf.featured.author"])) IN %@", [books(.values(keyPath: "author"))])
        case 9: return ("isAvailable IN %@", [books(.values(keyPath: "isAvailable", function: pick([.max, .min]), groupedBy: [group]))])
        case 2: return ("related.@count > 0 OR shelf.featured IN %@", [books(.objects)])
        case 3: return ("\(pick(["pageCount", "fileSize"])) IN %@", [books(.values(keyPath: "pageCount"))])
        case 4: return ("weight IN %@", [books(.values(keyPath: "weight", function: pick([.max, .min, .sum, .average]), groupedBy: [group]))])
        case 5: return ("%@ \(pick([">", "<=", "=="])) pageCount", [books(.count)])
        case 6: return ("pageCount \(pick(["==", "<", ">="])) %@", [books(.values(keyPath: "pageCount", function: pick([.max, .min, .count, .average])))])
        default:
            let authors = PredicateFetch(entityName: "Author", predicate: try! ObjectPredicate(format: "books.@count > %d", arguments: [small(0...2)]))
            return ("author IN %@", [authors])
        }
    }

    mutating func sortDescriptors() -> [ObjectSortDescriptor] {
        let keys = ["title", "notes", "pageCount", "price", "published", "weight", "author.name", "shelf.featured.pageCount", "isAvailable", "cover", "identifier", "website"]
        return (0..<Int.random(in: 0...2, using: &random)).map { _ in
            ObjectSortDescriptor(pick(keys), ascending: Bool.random(using: &random),
                           comparator: pick([.compare, .caseInsensitiveCompare, .localizedStandardCompare]))
        }
    }
}
