import Foundation
import Logging
import PostgresNIO
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server the PostgreSQL tests use: the one `DATAMODELKIT_POSTGRES_URL` names, or else a
/// throwaway cluster this test process starts with PostgreSQL's server binaries (Debian's
/// `postgresql` package) on a free loopback port, and stops when it exits. Where neither exists,
/// every PostgreSQL test is reported as skipped, with `unavailableReason`.
public enum PostgreSQLTestServer {
    public static let url: URLComponents? = {
        if let named = ProcessInfo.processInfo.environment["DATAMODELKIT_POSTGRES_URL"] { return URLComponents(string: named) }
        return (try? ThrowawayCluster.start()).flatMap { URLComponents(string: $0) }
    }()

    /// Why there is no server, for the tests it skips.
    public static var unavailableReason: Comment {
        _ = url
        return Comment(rawValue: ThrowawayCluster.failure ?? "no PostgreSQL server: set DATAMODELKIT_POSTGRES_URL or install Debian's 'postgresql' package")
    }

    /// The server's URL; a test or test case that needs one is cancelled where there is none. The
    /// console reports a cancelled test with its reason but not a cancelled case of a
    /// parameterized test, so each of those is also listed on standard output, with the reason.
    public static func requireURL() throws -> URLComponents {
        guard let url else {
            if let test = Test.current, test.isParameterized {
                print("➜ Test \(test.name): its PostgreSQL case is skipped: \(unavailableReason.rawValue)")
            }
            try Test.cancel(unavailableReason)
        }
        return url
    }

    /// Tests run in parallel; at most this many databases at once keeps their stores' connections
    /// within the server's limit.
    private static let databaseSlots = Slots(6)

    /// Runs `body` with the URL of a new, empty database, dropped afterwards (its connections
    /// closed by force), whether `body` throws or not.
    public static func withEmptyDatabase(_ body: (String) async throws -> Void) async throws {
        _ = try requireURL()
        await databaseSlots.take()
        do {
            try await withEmptyDatabaseInSlot(body)
        } catch {
            await databaseSlots.give()
            throw error
        }
        await databaseSlots.give()
    }

    /// Runs `body` with the URLs of `count` new, empty databases, dropped afterwards, as
    /// `withEmptyDatabase` does for one; they share one slot, so that tests waiting for a second
    /// database never hold every slot.
    public static func withEmptyDatabases(_ count: Int, _ body: ([String]) async throws -> Void) async throws {
        func adding(_ made: [String]) async throws {
            guard made.count < count else { return try await body(made) }
            try await withEmptyDatabaseInSlot { database in try await adding(made + [database]) }
        }
        try await withEmptyDatabase { first in try await adding([first]) }
    }

    private static func withEmptyDatabaseInSlot(_ body: (String) async throws -> Void) async throws {
        let server = try requireURL()
        let configuration = PostgresConnection.Configuration(
            host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: server.user ?? "postgres",
            password: server.password, database: String(server.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
        let name = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: connection.logger)
        var database = server
        database.path = "/\(name)"
        database.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        var failure: (any Error)?
        do {
            try await body(try #require(database.string))
        } catch {
            failure = error
        }
        _ = try? await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: connection.logger)
        try? await connection.close()
        if let failure { throw failure }
    }

    /// Each other session of the current database: its process, state, what it waits for and its
    /// query, for a test to say why something waits.
    public static func sessions(_ admin: PostgresConnection) async throws -> [String] {
        let rows = try await admin.query(
            """
            SELECT pid::text || ' ' || coalesce(state, '') || ' ' || coalesce(wait_event_type, '') || ' ' || coalesce(wait_event, '')
            || ': ' || left(query, 120) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """,
            logger: admin.logger)
        var sessions: [String] = []
        for try await session in rows.decode(String.self) { sessions.append(session) }
        return sessions
    }

    /// Ends the sessions of the current database that wait for a lock, once `count` have been,
    /// looking every 20 ms for at most 30 seconds; `admin` is the session that holds the lock.
    ///
    /// Sessions are counted by process: ending one only signals it, and on a busy machine it can
    /// still be listed as waiting at the next look, which must not count it twice.
    public static func endSessionsWaitingForALock(_ count: Int, admin: PostgresConnection) async throws {
        var ended: Set<Int> = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ended.count < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(ended.count) of \(count) sessions waited for the lock within 30 seconds")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
            // A transaction would otherwise see the activity of its first look.
            try await admin.query("SELECT pg_stat_clear_snapshot()", logger: admin.logger)
            let rows = try await admin.query(
                // Ended in the select list, which only the rows the filter keeps reach.
                """
                SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> ALL(\(Array(ended)))
                """,
                logger: admin.logger)
            for try await (pid, signalled) in rows.decode((Int, Bool).self) where signalled { ended.insert(pid) }
        }
    }
}

/// A counting semaphore for tasks.
private actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    func take() async {
        guard free == 0 else {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
