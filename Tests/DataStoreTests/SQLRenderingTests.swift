@testable import DataStore
@testable import PostgreSQLStore
import PostgreSQLSchema
import Testing

/// Statements are values the engine's dialect renders: the same value is SQLite's bare names and
/// `?`, and PostgreSQL's quoted names and `$1`, `$2`… — never text read back and rewritten.
struct SQLRenderingTests {
    /// A statement with names, placeholders in parts joined in, and text taken verbatim.
    private static let statement: SQL = {
        let condition: SQL = "\(.Z_ENT) = ? AND \(name: "ZTITLE") IN (\(KeyParameters.placeholders(2)))"
        return "SELECT \(.Z_PK), \(names: ["ZTITLE", "ZPRICE"]) FROM \(name: "ZBOOK") t0 WHERE \(condition) AND t0.\(.Z_OPT) > ?"
            + " AND \(name: "ZNOTE") = \(verbatim: "'what?'")"
    }()

    @Test func oneStatement_rendersInEachEnginesSpelling() {
        #expect(SQLiteDialect().rendered(Self.statement)
            == "SELECT Z_PK, ZTITLE, ZPRICE FROM ZBOOK t0 WHERE Z_ENT = ? AND ZTITLE IN (?,?) AND t0.Z_OPT > ? AND ZNOTE = 'what?'")
        #expect(PostgreSQLDialect().rendered(Self.statement)
            == #"SELECT "Z_PK", "ZTITLE", "ZPRICE" FROM "ZBOOK" t0 WHERE "Z_ENT" = $1 AND "ZTITLE" IN ($2,$3) AND t0."Z_OPT" > $4 AND "ZNOTE" = 'what?'"#)
    }

    @Test func theParts_areKeptApart() {
        let placeholders = Self.statement.pieces.filter { $0 == .placeholder }.count
        let names = Self.statement.pieces.compactMap { if case .name(let name) = $0 { name } else { nil } }
        #expect(placeholders == 4, "the `?` of verbatim text is no placeholder")
        #expect(names == ["Z_PK", "ZTITLE", "ZPRICE", "ZBOOK", "Z_ENT", "ZTITLE", "Z_OPT", "ZNOTE"])
    }

    /// Names a layout quotes or cuts are spelled as the store's DDL spells them.
    @Test func namesEachEngineCannotReadBare_areSpelledAsItsDDLSpellsThem() {
        let long = "Z_5LASTSERVERSYNCEDACTIVEPARTICIPANTS_Z_23LASTSERVERSYNCEDACTIVEPARTICIPANTS_INDEX"
        let select: SQL = "SELECT * FROM \(name: "Order Items") WHERE \(name: long) = 1"
        #expect(SQLiteDialect().rendered(select) == #"SELECT * FROM "Order Items" WHERE \#(long) = 1"#)
        #expect(PostgreSQLDialect().rendered(select) == #"SELECT * FROM "Order Items" WHERE \#(PostgreSQLName.quoted(long)) = 1"#)
        #expect(PostgreSQLName.quoted(long).utf8.count == PostgreSQLName.maximumLength + 2)
    }

    /// Placeholders a dialect writes are numbered where they stand among the statement's.
    @Test func dialectParts_takeTheirPlaceholdersInOrder() {
        let dialect = PostgreSQLDialect()
        let insert = dialect.insertKeepingExisting(into: .name("Z_1TAGS"), columns: ["Z_1BOOKS", "Z_2TAGS"])
        #expect(dialect.rendered(insert) == #"INSERT INTO "Z_1TAGS" ("Z_1BOOKS", "Z_2TAGS") VALUES ($1, $2) ON CONFLICT DO NOTHING"#)
        let values = dialect.valuesTable(rows: 2, columns: ["k", "x"], alias: "v")
        #expect(dialect.rendered("UPDATE \(name: "ZBOOK") SET \(name: "ZTITLE") = v.x FROM \(values) WHERE \(.Z_PK) = ?")
            == #"UPDATE "ZBOOK" SET "ZTITLE" = v.x FROM (VALUES ($1, $2), ($3, $4)) AS v(k, x) WHERE "Z_PK" = $5"#)
    }
}

extension SQLRenderingTests {
    /// A store name spelled as literal text would reach a server unquoted: debug builds stop at it.
    @Test func aStoreNameSpelledAsText_stopsADebugBuild() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            let table = "ZBOOK"
            _ = "SELECT Z_PK FROM \(name: table)" as SQL
        }
        #endif
    }
}
