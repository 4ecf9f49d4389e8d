import Foundation
import PostgresNIO

extension PostgresConnection.Configuration {
    /// A configuration from a connection URL as libpq reads it:
    /// `postgresql://user:password@host:port/database?sslmode=disable|prefer|require`.
    ///
    /// The host defaults to `localhost`, the port to 5432, the user to `postgres` and the database
    /// to the user's name; `sslmode` defaults to `prefer` (TLS when the server offers it). Modes that
    /// verify the server (`require`, `verify-ca`, `verify-full`) all require TLS with the system's
    /// trust roots; pass a configuration of your own for anything else.
    public init(url text: String) throws(StoreLocationError) {
        guard let url = URLComponents(string: text), ["postgresql", "postgres"].contains(url.scheme ?? "") else {
            throw .invalidURL(text, reason: "expected postgresql://user@host:port/database")
        }
        let user = url.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let path = url.percentEncodedPath.dropFirst()
        let database = path.isEmpty ? user : (String(path).removingPercentEncoding ?? String(path))
        let tls: TLS
        do {
            switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case "require", "verify-ca", "verify-full": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case let mode: throw StoreLocationError.invalidURL(text, reason: "unknown sslmode '\(mode)' (disable, prefer or require)")
            }
        } catch let error as StoreLocationError {
            throw error
        } catch {
            throw .invalidURL(text, reason: "cannot set up TLS: \(error)")
        }
        self.init(
            host: url.host ?? "localhost", port: url.port ?? 5432, username: user,
            password: url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }, database: database, tls: tls)
    }
}
