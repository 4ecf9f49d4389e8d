import StoreSchema

/// A statement, or a part of one, as the runtime builds it for every engine: SQL text, the names
/// of the store's tables, columns and indexes, and placeholders of bound values, kept apart so
/// that the store's dialect renders each in its engine's spelling (`SQLDialect.rendered(_:)`):
/// SQLite's bare names and `?`, a server's quoted names and numbered parameters.
///
/// Written as a string with interpolations: a `?` in the literal text is a placeholder, a name goes
/// in `\(name:)` (the bookkeeping columns have their own constants: `\(.Z_PK)`), and text the
/// source does not spell — a literal value, an engine's DDL — in `\(verbatim:)`:
///
/// ```swift
/// let select: SQL = "SELECT \(.Z_PK) FROM \(name: table) WHERE \(.Z_ENT) = ?"
/// ```
package struct SQL: Sendable, Hashable {
    package enum Piece: Sendable, Hashable {
        /// SQL as every engine reads it: keywords, operators, literals, aliases.
        case text(String)
        /// A table, column or index of the store, as the layout names it.
        case name(String)
        /// A bound value's place.
        case placeholder
    }

    package fileprivate(set) var pieces: [Piece] {
        didSet { renderings = nil }
    }

    /// Each dialect's rendering, once made, of a statement run for many rows (`reusable`).
    private var renderings: Renderings?

    package init() {
        pieces = []
    }

    /// This statement, keeping each dialect's rendering once it is made: for a statement built
    /// once and run for many rows, as a save's `DELETE` of each object.
    package var reusable: SQL {
        var sql = self
        sql.renderings = Renderings()
        return sql
    }

    /// The rendering `render` makes for `dialect`, made once for a reusable statement.
    func rendering(for dialect: any SQLDialect.Type, _ render: () -> String) -> String {
        guard let renderings else { return render() }
        let key = ObjectIdentifier(dialect)
        if let text = renderings.texts.withLock({ $0[key] }) { return text }
        let text = render()
        renderings.texts.withLock { $0[key] = text }
        return text
    }

    package static func == (lhs: SQL, rhs: SQL) -> Bool {
        lhs.pieces == rhs.pieces
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(pieces)
    }

    /// `text` as it is: `?` in it is no placeholder.
    package init(verbatim text: String) {
        pieces = text.isEmpty ? [] : [.text(text)]
    }

    /// A name of the store.
    package static func name(_ name: String) -> SQL {
        var sql = SQL()
        sql.pieces.append(.name(name))
        return sql
    }

    /// The names, `, ` between them.
    package static func names(_ names: some Sequence<String>) -> SQL {
        names.map(SQL.name).joined(separator: ", ")
    }

    /// A bound value's place.
    package static let placeholder: SQL = "?"

    package mutating func append(_ other: SQL) {
        pieces += other.pieces
    }

    /// Appends `count` placeholders, `, ` between them: a list of bound values.
    package mutating func appendPlaceholders(count: Int) {
        pieces.reserveCapacity(pieces.count + 2 * count)
        for index in 0..<count {
            if index > 0 { pieces.append(.text(", ")) }
            pieces.append(.placeholder)
        }
    }

    /// Appends `text`, each `?` in it a placeholder. Statements are built for each object a save
    /// writes, so the text is scanned by its bytes.
    fileprivate mutating func appendText(_ text: String) {
        assert(Self.storeNameSpelledAsText(in: text) == nil, "\(Self.storeNameSpelledAsText(in: text) ?? "") is a name: write it \\(name:) in \(text)")
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: "?")) else {
            if !text.isEmpty { pieces.append(.text(text)) }
            return
        }
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "?") {
            if index > start { pieces.append(.text(String(text[start..<index]))) }
            pieces.append(.placeholder)
            start = bytes.index(after: index)
        }
        if start < bytes.endIndex { pieces.append(.text(String(text[start...]))) }
    }

    /// A word of `text` spelled as Core Data names its tables and columns (`ZBOOK`, `Z_PK`,
    /// `ATRANSACTION`): a name written as text, which an engine that quotes names would not read.
    private static func storeNameSpelledAsText(in text: String) -> String? {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.first { word in
            let isUpperCase = word.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
            return isUpperCase && ((word.first == "Z" && word.count > 1) || word.hasPrefix("ATRANSACTION") || word.hasPrefix("ACHANGE"))
        }.map(String.init)
    }

    package static func + (lhs: SQL, rhs: SQL) -> SQL {
        var sql = lhs
        sql.append(rhs)
        return sql
    }

    package static func += (lhs: inout SQL, rhs: SQL) {
        lhs.append(rhs)
    }
}

/// The renderings of a reusable statement, shared by its copies.
private final class Renderings: Sendable {
    let texts = Locked<[ObjectIdentifier: String]>([:])
}

extension SQL: ExpressibleByStringInterpolation {
    package init(stringLiteral text: String) {
        self.init()
        appendText(text)
    }

    package init(stringInterpolation: Interpolation) {
        self = stringInterpolation.sql
    }

    package struct Interpolation: StringInterpolationProtocol {
        fileprivate var sql = SQL()

        package init(literalCapacity: Int, interpolationCount: Int) {
            sql.pieces.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ text: String) {
            sql.appendText(text)
        }

        package mutating func appendInterpolation(_ other: SQL) {
            sql.append(other)
        }

        package mutating func appendInterpolation(_ other: SQL?) {
            if let other { sql.append(other) }
        }

        /// A table, column or index of the store.
        package mutating func appendInterpolation(name: String) {
            sql.pieces.append(.name(name))
        }

        /// Names, `, ` between them.
        package mutating func appendInterpolation(names: some Sequence<String>) {
            sql.append(.names(names))
        }

        /// An integer, as a literal: entity numbers, limits.
        package mutating func appendInterpolation(_ number: some BinaryInteger) {
            sql.pieces.append(.text(String(number)))
        }

        /// Text the source does not spell, as it is: a literal value, an engine's own SQL.
        package mutating func appendInterpolation(verbatim text: String) {
            if !text.isEmpty { sql.pieces.append(.text(text)) }
        }
    }
}

extension Sequence<SQL> {
    /// The statements or parts, `separator` between them.
    package func joined(separator: SQL) -> SQL {
        var sql = SQL()
        for (index, part) in enumerated() {
            if index > 0 { sql.append(separator) }
            sql.append(part)
        }
        return sql
    }
}

// MARK: The bookkeeping names

/// The names of Core Data's own tables and columns, as statements use them: `\(.Z_PK)`.
extension SQL {
    package static let Z_PK = name("Z_PK")
    package static let Z_ENT = name("Z_ENT")
    package static let Z_OPT = name("Z_OPT")
    package static let Z_PRIMARYKEY = name("Z_PRIMARYKEY")
    package static let Z_NAME = name("Z_NAME")
    package static let Z_SUPER = name("Z_SUPER")
    package static let Z_MAX = name("Z_MAX")
    package static let Z_METADATA = name("Z_METADATA")
    package static let Z_VERSION = name("Z_VERSION")
    package static let Z_UUID = name("Z_UUID")
    package static let Z_PLIST = name("Z_PLIST")
    package static let Z_MODELCACHE = name("Z_MODELCACHE")
    package static let Z_CONTENT = name("Z_CONTENT")
}

extension SQL: CustomStringConvertible {
    /// As SQLite reads it.
    package var description: String { sqliteText }
}
