import DataModel
import GRDB

/// Checks a predicate against an entity and resolves it: key paths to properties, constants to the
/// stored form of what they are compared with, implicit forms (`x IN books.title`,
/// `tags CONTAINS %@`) to quantifiers. Every error names what is wrong.
struct PredicateResolver {
    let store: PersistentStore
    /// The coordinator whose stores a fetch in the predicate may not leave `store` for.
    var coordinator: PersistentStoreCoordinator?
    /// The objects in scope: the fetched object, then each quantifier or `SUBQUERY` element.
    private var scopes: [(variable: String?, entity: EntityDescription)]

    init(store: PersistentStore, entity: EntityDescription) {
        self.store = store
        scopes = [(nil, entity)]
    }

    /// What a side of a comparison yields, for converting constants and checking types.
    enum ValueKind: Equatable {
        case attribute(AttributeType)
        case object
        case count
        /// An integer computed by an operator or a function.
        case integer
        case real

        /// The attribute type values of the kind have (an object's is its key's).
        var attributeType: AttributeType {
            switch self {
            case .attribute(let type): type
            case .object, .count, .integer: .integer64
            case .real: .double
            }
        }

        /// Whether values of the kind are integers (counts and integer attributes).
        var isInteger: Bool {
            switch self {
            case .count, .integer: true
            case .attribute(let type): type.isInteger
            case .object, .real: false
            }
        }

        /// Whether the bits and integer arithmetic of operators apply: integers and Booleans.
        var isIntegral: Bool {
            isInteger || self == .attribute(.boolean)
        }

        /// Kinds that compare with each other.
        var group: String {
            switch self {
            case .object: "object"
            case .count, .integer, .real: "number"
            case .attribute(let type):
                switch type {
                case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: "number"
                case .string: "string"
                case .date: "date"
                case .binary, .transformable: "data"
                case .uuid: "UUID"
                case .uri: "URI"
                case .objectID, .composite, .undefined: "\(type)"
                }
            }
        }
    }

    /// A side before constants are converted.
    enum Side {
        case constant(PredicateValue)
        case resolved(ResolvedExpression, ValueKind)
    }

    /// Where a key path leads: a value (an attribute or an object), or into a to-many with the rest
    /// of the path still to apply to its elements.
    enum Walk {
        case value(ResolvedPath, AttributeDescription?)
        case toMany(ResolvedCollection, rest: [String])
    }

    func resolve(_ predicate: ObjectPredicate) throws(ContextError) -> ResolvedPredicate {
        switch predicate {
        case .constant(let value): return .constant(value)
        case .not(let predicate): return .not(try resolve(predicate))
        case .and(let terms):
            var resolved: [ResolvedPredicate] = []
            for term in terms { resolved.append(try resolve(term)) }
            return .and(resolved)
        case .or(let terms):
            var resolved: [ResolvedPredicate] = []
            for term in terms { resolved.append(try resolve(term)) }
            return .or(resolved)
        case .comparison(let comparison): return try resolve(comparison)
        }
    }

    // MARK: Comparisons

    private func resolve(_ comparison: PredicateComparison) throws(ContextError) -> ResolvedPredicate {
        // A to-many on the left: quantified (`ANY books.price < 5`) or membership (`tags CONTAINS %@`).
        if case .toMany(let collection, let rest)? = try walkIfKeyPath(comparison.lhs), rest.first?.hasPrefix("@") != true {
            if comparison.quantifier == .direct {
                guard comparison.operator == .contains else {
                    throw .invalidPredicate("'\(comparison.lhs)' is a to-many relationship: use ANY, ALL or NONE, or an aggregate such as @count, in \"\(comparison)\"")
                }
                return try quantified(.any, collection, rest) { PredicateComparison($0, .equal, comparison.rhs, options: comparison.options) }
            }
            return try quantified(comparison.quantifier, collection, rest) { element in
                var elementComparison = comparison
                elementComparison.quantifier = .direct
                elementComparison.lhs = element
                return elementComparison
            }
        }
        if comparison.quantifier != .direct, case .collection(let elements) = comparison.lhs {
            return try quantifiedConstants(comparison, elements)
        }
        if comparison.quantifier != .direct {
            // Over a single value — a to-one, an attribute — the quantifier takes it as the one
            // element, as Foundation does.
            var direct = comparison
            direct.quantifier = .direct
            let resolved = try resolve(direct)
            return comparison.quantifier == .none ? .not(resolved) : resolved
        }
        // `x IN books.title`: some element equals x.
        if comparison.operator == .in, case .toMany(let collection, let rest)? = try walkIfKeyPath(comparison.rhs), rest.first?.hasPrefix("@") != true {
            return try quantified(.any, collection, rest) { PredicateComparison($0, .equal, comparison.lhs, options: comparison.options) }
        }

        if comparison.operator == .equal || comparison.operator == .notEqual,
           let equal = try collectionsEqual(comparison.lhs, comparison.rhs, comparison.options) {
            return comparison.operator == .equal ? equal : .not(equal)
        }

        var lhs = try side(comparison.lhs), rhs = try side(comparison.rhs)
        // A constant compared with a transformable attribute goes through its transformer first.
        if case .resolved(.attribute(_, let attribute), _) = lhs, attribute.type == .transformable { rhs = try Self.transformed(rhs, for: attribute) }
        if case .resolved(.attribute(_, let attribute), _) = rhs, attribute.type == .transformable { lhs = try Self.transformed(lhs, for: attribute) }
        let options = comparison.options
        switch (comparison.operator, lhs, rhs) {
        case (.in, .resolved(let left, let kind), .constant(.fetch(let fetch))):
            // `SELF IN %@`, `key IN %@` with a fetch: a subquery.
            let subquery = try resolved(fetch)
            guard kind.group == subquery.kind.group else {
                throw .invalidPredicate("a \(kind.group) is looked for among the \(subquery.kind.group)s of \(fetch), in \"\(comparison)\"")
            }
            return .compare(left, .in, .fetched(subquery), applicable(options, to: kind))
        case (.contains, .constant(.fetch), _):
            return try resolve(PredicateComparison(comparison.rhs, .in, comparison.lhs, options: options))
        case (.in, .constant, .constant(.fetch)):
            throw .invalidPredicate("IN a fetch needs a key path or SELF on its left, not a constant, in \"\(comparison)\"")
        case (.in, _, .constant(.attribute(.string))):
            // `name IN 'text'`, `'ell' IN 'hello'`: a substring of the text.
            return try resolve(PredicateComparison(comparison.rhs, .contains, comparison.lhs, options: options))
        case (.contains, .constant(.collection), _):
            // `{…} CONTAINS name`, `%@ CONTAINS name` with an array: membership.
            return try resolve(PredicateComparison(comparison.rhs, .in, comparison.lhs, options: options))
        default: break
        }
        func fail(_ reason: String) -> ContextError { .invalidPredicate("\(reason), in \"\(comparison)\"") }
        switch (lhs, rhs) {
        case (.resolved(.attribute(let path, let composite), _), .constant(let value)) where composite.type == .composite,
             (.constant(let value), .resolved(.attribute(let path, let composite), _)) where composite.type == .composite:
            return try compare(composite, at: path, comparison.operator, value, fail)
        case (.resolved(.attribute(_, let attribute), _), _) where attribute.type == .composite,
             (_, .resolved(.attribute(_, let attribute), _)) where attribute.type == .composite:
            throw fail("a composite compares with == or != to a value or nil; compare its members, as in '\(attribute.name).\(attribute.members.first?.memberName ?? "member")'")
        default: break
        }

        switch comparison.operator {
        case .in, .between:
            guard case .constant(let right) = rhs, case .collection(let elements) = right else {
                throw fail("the right of \(comparison.operator.rawValue) must be a collection: {…}, an array argument, a to-many key path or text")
            }
            if comparison.operator == .between, elements.count != 2 { throw fail("BETWEEN needs exactly two bounds") }
            var list: [ResolvedExpression] = []
            switch lhs {
            case .resolved(let left, let kind):
                let options = applicable(options, to: kind)
                for element in elements {
                    // A Boolean equals the numbers 0 and 1 only.
                    if comparison.operator == .in, let number = booleanNumber(element, kind).flatMap(Double.fromDatabaseValue) {
                        if number == 0 || number == 1 { list.append(try convert(.attribute(.bool(number == 1)), to: kind, options: options, fail)) }
                        continue
                    }
                    // An element of another kind equals nothing here, as in Foundation.
                    if comparison.operator == .in, isUnlike(element, kind) { continue }
                    list.append(try convert(element, to: kind, options: options, fail))
                }
                return .compare(left, comparison.operator, .list(list), options)
            case .constant(let value):
                // `3 IN {1, 2, 3}`: constants compared as they are.
                for element in elements { list.append(try constant(element, fail)) }
                return judged(try constant(value, fail), comparison.operator, .list(list), value.isString ? options : [])
            }

        case .beginsWith, .endsWith, .contains, .like, .matches:
            let left = try stringSide(lhs, folding: [], fail)
            let right = try stringSide(rhs, folding: comparison.operator == .matches ? [] : options, fail)
            if comparison.operator == .matches, case .value(let pattern) = right, let text = String.fromDatabaseValue(pattern),
               RegularExpressions.expression(text, caseInsensitive: options.contains(.caseInsensitive)) == nil {
                throw fail("\(text.debugDescription) is not a valid regular expression")
            }
            if case .value = left, case .value = right { return judged(left, comparison.operator, right, options) }
            return .compare(left, comparison.operator, right, options)

        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let isOrdering = ![.equal, .notEqual].contains(comparison.operator)
            switch (lhs, rhs) {
            case (.resolved(_, .object), _) where isOrdering, (_, .resolved(_, .object)) where isOrdering:
                throw fail("objects compare with == and != only")
            case (.resolved(let left, let leftKind), .resolved(let right, let rightKind)):
                guard leftKind.group == rightKind.group else {
                    guard !isOrdering else { throw fail("cannot order a \(leftKind.group) against a \(rightKind.group)") }
                    // Foundation's `isEqual:` between unlike values: never equal, but two nils are.
                    let bothNil = ResolvedPredicate.and([.compare(left, .equal, .null(of: leftKind), []), .compare(right, .equal, .null(of: rightKind), [])])
                    return comparison.operator == .equal ? bothNil : .not(bothNil)
                }
                return .compare(left, comparison.operator, right, applicable(options, to: leftKind))
            case (.resolved(let left, let kind), .constant(let value)):
                if !isOrdering, isUnlike(value, kind) { return .constant(comparison.operator == .notEqual) }
                if let number = booleanNumber(value, kind) {
                    return try comparing(boolean: left, comparison.operator, number, numberFirst: false, fail)
                }
                let options = applicable(options, to: kind)
                return .compare(left, comparison.operator, try convert(value, to: kind, options: options, fail), options)
            case (.constant(let value), .resolved(let right, let kind)):
                if !isOrdering, isUnlike(value, kind) { return .constant(comparison.operator == .notEqual) }
                if let number = booleanNumber(value, kind) {
                    return try comparing(boolean: right, comparison.operator, number, numberFirst: true, fail)
                }
                let options = applicable(options, to: kind)
                return .compare(try convert(value, to: kind, options: options, fail), comparison.operator, right, options)
            case (.constant(let left), .constant(let right)):
                let options = left.isString && right.isString ? options : []
                return judged(try constant(left, fail), comparison.operator, try constant(right, fail), options)
            }
        }
    }

    /// `{a, b} = {'x', 3}`: collections are equal when they have as many elements and each equals
    /// the other's at its place, as `NSArray`'s `isEqual:` answers; a collection equals no single
    /// value. `nil` when neither side is a collection.
    private func collectionsEqual(_ lhs: PredicateExpression, _ rhs: PredicateExpression, _ options: StringOptions) throws(ContextError) -> ResolvedPredicate? {
        func elements(_ expression: PredicateExpression) throws(ContextError) -> [PredicateExpression]? {
            switch expression {
            case .collection(let elements): return elements
            case .constant(.collection(let values)): return values.map(PredicateExpression.constant)
            case .function, .index:
                // `mode:(…)` and `{…}[LAST]` may give a collection.
                guard case .constant(.collection(let values)) = try side(expression) else { return nil }
                return values.map(PredicateExpression.constant)
            case .variable, .keyPath, .conditional, .subquery, .evaluatedObject, .constant, .method: return nil
            }
        }
        switch (try elements(lhs), try elements(rhs)) {
        case (nil, nil): return nil
        case (let left?, let right?):
            guard left.count == right.count else { return .constant(false) }
            var pairs: [ResolvedPredicate] = []
            for (left, right) in zip(left, right) {
                pairs.append(try resolve(.comparison(PredicateComparison(left, .equal, right, options: options))))
            }
            return .and(pairs)
        default: return .constant(false)
        }
    }

    /// `ANY {0, 42, 100} BETWEEN {23, 50}`: the comparison of each constant, judged now; `ALL` and
    /// `NONE` hold for no elements, `ANY` does not.
    private func quantifiedConstants(_ comparison: PredicateComparison, _ elements: [PredicateExpression]) throws(ContextError) -> ResolvedPredicate {
        var holding = 0
        for element in elements {
            var one = comparison
            one.quantifier = .direct
            one.lhs = element
            guard case .constant(let holds) = try resolve(one) else {
                throw .invalidPredicate("\(comparison.quantifier.rawValue) over {…} compares constants only, in \"\(comparison)\"")
            }
            if holds { holding += 1 }
        }
        switch comparison.quantifier {
        case .all: return .constant(holding == elements.count)
        case .none: return .constant(holding == 0)
        case .any, .direct: return .constant(holding > 0)
        }
    }

    /// `shelfSpot == %@`: every leaf of the composite equals the value's member at its path
    /// (`nil` where the value has none).
    private func compare(
        _ composite: AttributeDescription, at path: ResolvedPath, _ comparisonOperator: ComparisonOperator,
        _ value: PredicateValue, _ fail: (String) -> ContextError
    ) throws(ContextError) -> ResolvedPredicate {
        guard comparisonOperator == .equal || comparisonOperator == .notEqual else {
            throw fail("a composite compares with == or != only; compare its members to order them")
        }
        guard case .attribute(let attribute) = value, let converted = composite.coerced(attribute) else {
            throw fail("\(value) is not a value of the composite '\(composite.name)'")
        }
        let leaves = composite.leaves.map { leaf in
            ResolvedPredicate.compare(
                .attribute(path, leaf), .equal,
                .value(converted.member(at: leaf.memberPath.dropFirst(composite.memberPath.count)).storedValue), [])
        }
        return comparisonOperator == .equal ? .and(leaves) : .not(.and(leaves))
    }

    /// `quantifier` over the elements of `collection`: the comparison `make` builds around the
    /// element side (the element, or `rest` of the key path from it), resolved with the element in scope.
    private func quantified(
        _ quantifier: Quantifier, _ collection: ResolvedCollection, _ rest: [String],
        _ make: (PredicateExpression) -> PredicateComparison
    ) throws(ContextError) -> ResolvedPredicate {
        let element = elementVariable
        let side: PredicateExpression = rest.isEmpty ? .variable(element) : .keyPath(.variable(element), rest)
        return .quantified(quantifier, collection, try pushing(element, collection.destination).resolve(make(side)))
    }

    /// A comparison of constants, judged now, so that every engine gives Foundation's answer
    /// (a server would compare parameters of no stated type as text). A constant pattern of a
    /// string operator is folded already (`stringSide`).
    private func judged(_ lhs: ResolvedExpression, _ comparisonOperator: ComparisonOperator, _ rhs: ResolvedExpression, _ options: StringOptions) -> ResolvedPredicate {
        func evaluated(_ expression: ResolvedExpression) -> EvaluatedValue {
            switch expression {
            case .value(let value): .stored(value)
            case .objectValue(let id): .object(id)
            case .list(let elements): .list(elements.map(evaluated))
            case .attribute, .object, .aggregate, .subqueryCount, .operation, .function, .conditional, .numberText, .fetched: .stored(.null)
            }
        }
        return .constant(EvaluatedValue.compare(
            evaluated(lhs), comparisonOperator, evaluated(rhs), options: options, patternIsFolded: comparisonOperator.isStringOperator))
    }

    /// Whether a constant is a value that a `kind` never equals, as Foundation's `isEqual:` answers
    /// between unlike classes (`"42" != 42`, `author != "Ann"`): a value other than `nil` that
    /// does not convert to the kind. An ordering of unlike values stays an error, as `compare:`
    /// raises one in Foundation.
    private func isUnlike(_ value: PredicateValue, _ kind: ValueKind) -> Bool {
        switch (value, kind) {
        case (.attribute(.null), _), (.collection, _), (.fetch, _): false
        case (.object, .object): false
        case (.object, _), (.attribute, .object): true
        case (.attribute(let attribute), .attribute(let type)): attribute.coerced(to: type) == nil
        case (.attribute(let attribute), _): Double(attributeValue: attribute) == nil
        }
    }

    /// A number (not a Boolean) compared with a Boolean attribute, which `NSNumber` compares as
    /// 0 or 1: `nil` for other comparisons.
    private func booleanNumber(_ value: PredicateValue, _ kind: ValueKind) -> DatabaseValue? {
        guard kind == .attribute(.boolean), case .attribute(let attribute) = value, attribute.isNumber,
              let real = Double(attributeValue: attribute), !real.isNaN else { return nil }
        return attribute.databaseValue
    }

    /// A Boolean attribute against a number, as the values 0 and 1 answer it (`isAvailable == 2`
    /// holds for none, `isAvailable >= 0.5` for YES): a comparison of the attribute with the one
    /// value that holds, whether it has a value when both do, and nothing when neither does.
    private func comparing(
        boolean attribute: ResolvedExpression, _ comparisonOperator: ComparisonOperator, _ number: DatabaseValue,
        numberFirst: Bool, _ fail: (String) -> ContextError
    ) throws(ContextError) -> ResolvedPredicate {
        let holding = [false, true].filter { truth in
            let (value, constant) = (EvaluatedValue.stored(truth.databaseValue), EvaluatedValue.stored(number))
            let (lhs, rhs) = numberFirst ? (constant, value) : (value, constant)
            return EvaluatedValue.compare(lhs, comparisonOperator, rhs, options: [], patternIsFolded: false)
        }
        switch holding.count {
        case 0: return .constant(false)
        case 1 where comparisonOperator == .notEqual:
            // `!=` holds for `nil` too: the attribute is not the one value that fails.
            return .compare(attribute, .notEqual, try convert(.attribute(.bool(!holding[0])), to: .attribute(.boolean), options: [], fail), [])
        case 1: return .compare(attribute, .equal, try convert(.attribute(.bool(holding[0])), to: .attribute(.boolean), options: [], fail), [])
        default: return comparisonOperator == .notEqual ? .constant(true) : .compare(attribute, .notEqual, .value(.null), [])
        }
    }

    /// `options` where they apply: `[c]` and `[d]` on another comparison than of strings change
    /// nothing, as in Foundation.
    private func applicable(_ options: StringOptions, to kind: ValueKind) -> StringOptions {
        kind.group == "string" ? options : []
    }

    /// A side of a string operator: a string key path, or a constant read as a string. A constant
    /// pattern is folded here, once, rather than for every row (`TextMatching.matches`'s
    /// `patternIsFolded`).
    private func stringSide(_ side: Side, folding options: StringOptions, _ fail: (String) -> ContextError) throws(ContextError) -> ResolvedExpression {
        switch side {
        case .resolved(let expression, let kind):
            // A URI is stored as its text, which the operators read.
            guard kind.group == "string" || kind.group == "URI" else { throw fail("string operators apply to strings, not to a \(kind.group)") }
            return expression
        case .constant(let value):
            let converted = try convert(value, to: .attribute(.string), options: [], fail)
            guard !options.isEmpty, case .value(let stored) = converted, case .string(let text) = stored.storage else { return converted }
            return .value(TextMatching.fold(text, options).databaseValue)
        }
    }

    /// A constant side (or each element of a constant collection) as `attribute` stores it.
    private static func transformed(_ side: Side, for attribute: AttributeDescription) throws(ContextError) -> Side {
        func stored(_ value: PredicateValue) throws(ContextError) -> PredicateValue {
            switch value {
            case .attribute(let constant): .attribute(try ValueTransformers.stored(constant, for: attribute))
            case .collection(let elements): .collection(try elements.map { (element) throws(ContextError) in try stored(element) })
            case .object, .fetch: value
            }
        }
        guard case .constant(let value) = side else { return side }
        return .constant(try stored(value))
    }

    /// A constant converted to what it is compared with, in stored form.
    func convert(_ value: PredicateValue, to kind: ValueKind, options: StringOptions, _ fail: (String) -> ContextError) throws(ContextError) -> ResolvedExpression {
        switch (value, kind) {
        case (.object(let object), .object):
            guard let id = object.objectID else { throw fail("\(object) is not an object ID of a store") }
            return .objectValue(id)
        case (.attribute(.null), .object): return .objectValue(nil)
        case (_, .object): throw fail("an object is compared with \(value)")
        case (.attribute(let attribute), _) where kind.isInteger && attribute.hasFraction:
            // `pageCount < 2.5` compares numbers, as Core Data does: the fraction is kept.
            guard let real = Double(attributeValue: attribute) else { throw fail("\(value) is not a number") }
            return .value(real.storedValue)
        case (.attribute(let attribute), .attribute(let type)):
            guard let converted = attribute.coerced(to: type) else { throw fail("\(value) is not a \(kind.group)") }
            return .value(converted.storedValue)
        case (.attribute(let attribute), .count), (.attribute(let attribute), .integer), (.attribute(let attribute), .real):
            guard let converted = attribute.coerced(to: kind == .real ? .double : .integer64) else { throw fail("\(value) is not a number") }
            return .value(converted.storedValue)
        case (.object, _): throw fail("an object is compared with a \(kind.group)")
        case (.collection, _): throw fail("a collection can only be the right of IN or BETWEEN")
        case (.fetch, _): throw fail(Self.fetchMisplaced)
        }
    }

    func constant(_ value: PredicateValue, _ fail: (String) -> ContextError) throws(ContextError) -> ResolvedExpression {
        switch value {
        case .attribute(let attribute): return .value(attribute.databaseValue)
        case .object(let object):
            guard let id = object.objectID else { throw fail("\(object) is not an object ID of a store") }
            return .objectValue(id)
        case .collection: throw fail("a collection can only be the right of IN or BETWEEN")
        case .fetch: throw fail(Self.fetchMisplaced)
        }
    }

    /// Why a fetch's results cannot stand where they are.
    static let fetchMisplaced = "a fetch's objects or values are the right of IN; only a count, or an aggregate without groups, compares as one value"

    // MARK: Expressions

    func side(_ expression: PredicateExpression) throws(ContextError) -> Side {
        if let string = stringLength(expression) { return try functionSide(.length, [string], expression) }
        if let number = numberStringValue(expression) {
            switch try side(number) {
            case .resolved(let resolved, _): return .resolved(.numberText(resolved), .attribute(.string))
            case .constant(.attribute(let value)): return .constant(PredicateValue(stored: NumberText.text(of: value.databaseValue)))
            case .constant: return .constant(.attribute(.null))
            }
        }
        switch expression {
        case .constant(.fetch(let fetch)):
            // One value compares as any value does; a list waits for the IN it belongs to.
            let subquery = try resolved(fetch)
            return subquery.isScalar ? .resolved(.fetched(subquery), subquery.kind) : .constant(.fetch(fetch))
        case .constant(let value):
            return .constant(value)
        case .collection:
            return .constant(try constantValue(of: expression))
        case .evaluatedObject:
            return .resolved(.object(ResolvedPath(scope: 0, start: scopes[0].entity)), .object)
        case .variable(let name):
            let path = try variablePath(name)
            return .resolved(.object(path), .object)
        case .subquery:
            throw .invalidPredicate("a SUBQUERY must be followed by .@count: '\(expression)'")
        case .keyPath(.subquery(let collection, let variable, let predicate), let path):
            guard path == ["@count"] else { throw .invalidPredicate("a SUBQUERY must be followed by .@count: '\(expression)'") }
            guard case .toMany(let resolved, let rest)? = try walkIfKeyPath(collection), rest.isEmpty else {
                throw .invalidPredicate("the collection of a SUBQUERY must be a to-many key path: '\(collection)'")
            }
            return .resolved(.subqueryCount(resolved, try pushing(variable, resolved.destination).resolve(predicate)), .count)
        case .function(let function, let arguments):
            return try functionSide(function, arguments, expression)
        case .conditional(let condition, let whenTrue, let whenFalse):
            return try conditionalSide(condition, whenTrue, whenFalse, expression)
        case .index(let collection, let index):
            return try indexSide(collection, index, expression)
        case .method:
            throw .invalidPredicate("'\(expression)' calls a method of an object, which a store cannot run (nor can Core Data's); use a built-in function such as abs:(x)")
        case .keyPath:
            switch try walkIfKeyPath(expression) {
            case .value(let path, let attribute?)?: return .resolved(.attribute(path, attribute), .attribute(attribute.type))
            case .value(let path, nil)?: return .resolved(.object(path), .object)
            case .toMany(let collection, let rest)?: return try aggregate(collection, rest, text: "\(expression)")
            case nil: throw .invalidPredicate("'\(expression)' is not a key path")
            }
        }
    }

    /// `books.@count`, `books.@sum.price`, …
    func aggregate(_ collection: ResolvedCollection, _ rest: [String], text: String) throws(ContextError) -> Side {
        guard let first = rest.first, let function = AggregateFunction(rawValue: first) else {
            throw .invalidPredicate("'\(text)' leads through a to-many relationship: use ANY, ALL or NONE, or an aggregate such as @count")
        }
        if function == .count {
            guard rest.count == 1 else { throw .invalidPredicate("nothing can follow @count in '\(text)'") }
            return .resolved(.aggregate(.count, collection, value: nil), .count)
        }
        let element = ResolvedPath(scope: collection.elementScope, start: collection.destination)
        guard case .value(let path, let attribute?) = try walk(from: element, Array(rest.dropFirst()), text: text) else {
            throw .invalidPredicate("\(first) needs an attribute of the elements, as in 'books.\(first).price', in '\(text)'")
        }
        let kind: ValueKind
        switch function {
        case .sum, .average:
            guard ValueKind.attribute(attribute.type).group == "number" else {
                throw .invalidPredicate("\(first) needs a numeric attribute, in '\(text)'")
            }
            kind = .real
        default:
            kind = .attribute(attribute.type)
        }
        return .resolved(.aggregate(function, collection, value: (path, attribute)), kind)
    }

    // MARK: Key paths

    /// The attribute — or, with `nil`, the object of a to-one relationship — a fetched property
    /// names, through to-one relationships.
    func propertyPath(_ keyPath: String) throws(ContextError) -> (ResolvedPath, AttributeDescription?) {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch try walk(from: ResolvedPath(scope: 0, start: scopes[0].entity), components, text: keyPath) {
        case .value(let path, let attribute): return (path, attribute)
        case .toMany: throw .invalidPredicate("'\(keyPath)' leads through a to-many relationship")
        }
    }

    /// The attribute a sort descriptor names, through to-one relationships.
    func attributePath(_ keyPath: String) throws(ContextError) -> (ResolvedPath, AttributeDescription) {
        let (path, attribute) = try propertyPath(keyPath)
        guard let attribute else { throw .invalidPredicate("'\(keyPath)' names a relationship, not an attribute") }
        guard attribute.type != .composite else {
            throw .invalidPredicate("'\(keyPath)' is a composite: sort by its members, as in '\(keyPath).\(attribute.members.first?.memberName ?? "member")'")
        }
        return (path, attribute)
    }

    /// The value of a constant or a `{…}` of constants (nested ones included).
    func constantValue(of expression: PredicateExpression) throws(ContextError) -> PredicateValue {
        switch expression {
        case .constant(let value): return value
        case .collection(let elements):
            var values: [PredicateValue] = []
            for element in elements { values.append(try constantValue(of: element)) }
            return .collection(values)
        default: throw .invalidPredicate("the elements of {…} must be constants, not '\(expression)'")
        }
    }

    /// The walk of a key path expression, or `nil` for other expressions.
    func walkIfKeyPath(_ expression: PredicateExpression) throws(ContextError) -> Walk? {
        guard case .keyPath(let base, let components) = expression else { return nil }
        let start: ResolvedPath
        switch base {
        case .evaluatedObject: start = ResolvedPath(scope: 0, start: scopes[0].entity)
        case .variable(let name): start = try variablePath(name)
        default: return nil
        }
        // `name.length` and `number.stringValue` compute: they are no key paths to walk.
        if stringLength(expression) != nil || numberStringValue(expression) != nil { return nil }
        return try walk(from: start, components, text: "\(expression)")
    }

    /// The string key path of `name.length` (or `number.stringValue.length`), whose length it
    /// reads as `NSString`'s key of that name does; `nil` for any other expression.
    func stringLength(_ expression: PredicateExpression) -> PredicateExpression? {
        guard case .keyPath(let base, let components) = expression, components.count > 1, components.last == "length" else { return nil }
        let string = PredicateExpression.keyPath(base, Array(components.dropLast()))
        if numberStringValue(string) != nil { return string }
        guard case .value(_, let attribute?)? = try? walkIfKeyPath(string), attribute.type == .string else { return nil }
        return string
    }

    /// The number key path of `number.stringValue`, whose text it reads as `NSNumber`'s key of
    /// that name does; `nil` for any other expression.
    func numberStringValue(_ expression: PredicateExpression) -> PredicateExpression? {
        guard case .keyPath(let base, let components) = expression, components.count > 1, components.last == "stringValue" else { return nil }
        let number = PredicateExpression.keyPath(base, Array(components.dropLast()))
        guard case .value(_, let attribute?)? = try? walkIfKeyPath(number),
              attribute.type.isInteger || [.double, .float, .decimal, .boolean].contains(attribute.type)
        else { return nil }
        return number
    }

    private func walk(from start: ResolvedPath, _ components: [String], text: String) throws(ContextError) -> Walk {
        var path = start
        for (index, component) in components.enumerated() {
            let entity = path.end
            if let attribute = entity.attribute(named: component) {
                // Only a composite's members follow an attribute: `shelfSpot.position.x`.
                guard let member = attribute.member(at: components[(index + 1)...]) else {
                    throw .unknownKeyPath(entity: scopes[0].entity.name, keyPath: text)
                }
                guard !attribute.isTransient else {
                    throw .invalidPredicate("'\(component)' of \(entity.name) is transient and not in the store, in '\(text)'")
                }
                return .value(path, member)
            }
            guard let relationship = entity.relationship(named: component),
                  let destination = store.entity(named: relationship.destinationEntityName) else {
                throw .unknownKeyPath(entity: path.end.name, keyPath: text)
            }
            guard !relationship.isTransient else {
                throw .invalidPredicate("'\(component)' of \(entity.name) is transient and not in the store, in '\(text)'")
            }
            if relationship.isToMany {
                let collection = ResolvedCollection(owner: path, relationship: relationship, destination: destination, elementScope: scopes.count)
                return .toMany(collection, rest: Array(components[(index + 1)...]))
            }
            path.toOnes.append((relationship, destination))
        }
        return .value(path, nil)
    }

    private func variablePath(_ name: String) throws(ContextError) -> ResolvedPath {
        guard let scope = scopes.lastIndex(where: { $0.variable == name }) else { throw .unboundVariable(name) }
        return ResolvedPath(scope: scope, start: scopes[scope].entity)
    }

    /// A variable name no format string can write, for the element of an implicit quantifier.
    private var elementVariable: String { "\u{0}element\(scopes.count)" }

    private func pushing(_ variable: String, _ entity: EntityDescription) -> PredicateResolver {
        var inner = self
        inner.scopes.append((variable, entity))
        return inner
    }
}

private extension AttributeValue {
    /// Whether the value is a number other than a Boolean.
    var isNumber: Bool {
        switch self {
        case .integer, .double, .decimal: true
        default: false
        }
    }

    /// Whether the value is a number with a fraction (or beyond every integer), which an integer
    /// comparison must not round away.
    var hasFraction: Bool {
        switch self {
        case .double, .decimal: Double(attributeValue: self).map { !$0.isNaN && Int64(exactly: $0) == nil } ?? false
        default: false
        }
    }

    /// The value as SQLite stores it: a NaN is stored as `NULL`.
    var storedValue: DatabaseValue {
        if case .double(let value) = self, value.isNaN { return .null }
        return databaseValue
    }
}

private extension Double {
    var storedValue: DatabaseValue { AttributeValue.double(self).storedValue }
}

private extension PredicateValue {
    /// Whether the value is text, which `[c]` and `[d]` apply to.
    var isString: Bool {
        if case .attribute(.string) = self { true } else { false }
    }
}
