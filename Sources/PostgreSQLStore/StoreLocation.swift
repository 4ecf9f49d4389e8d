import Foundation
import PostgresNIO

/// Where a store is: a SQLite file, or a PostgreSQL database.
public enum StoreLocation: Sendable, CustomStringConvertible {
    /// A SQLite store file.
    case sqlite(URL)
    /// A PostgreSQL database (its current schema), and how messages name it (its URL without the
    /// password).
    case postgreSQL(PostgresConnection.Configuration, description: String)

    /// A `postgresql://` (or `postgres://`) URL names a PostgreSQL database; anything else is a file path.
    public init(_ argument: String) throws(StoreLocationError) {
        if argument.hasPrefix("postgresql:") || argument.hasPrefix("postgres:") {
            self = .postgreSQL(try PostgresConnection.Configuration(url: argument), description: Self.withoutPassword(argument))
        } else {
            self = .sqlite(URL(fileURLWithPath: argument))
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let url): url.path
        case .postgreSQL(_, let description): description
        }
    }

    /// The URL as messages may show it.
    private static func withoutPassword(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? text
    }
}

/// A store location that cannot be used.
public enum StoreLocationError: Error, Sendable, CustomStringConvertible {
    /// The URL cannot be read, or asks for what the connection cannot do.
    case invalidURL(String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid store URL '\(url)': \(reason)"
        }
    }
}
