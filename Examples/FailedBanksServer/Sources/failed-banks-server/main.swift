// The Failed Banks list, served from PostgreSQL with the generated classes.
//
//     swift run --package-path Examples/FailedBanksServer failed-banks-server \
//         --database postgresql://user@host:port/banks [--port 8080] [--sample-banks 3000]
//
// `GET /banks?page=0&size=20` answers one page of the list in JSON: the banks in sections by
// state, latest closing first, paged by a results controller. `GET /health` answers `ok`. A
// database without a store gets `--sample-banks` made-up banks first (none by default).
import DataStore
import Foundation
import Hummingbird
import PostgreSQLStore

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let database = option("--database"), !arguments.contains("--help") else {
    print("usage: failed-banks-server --database postgresql://user@host:port/name [--port 8080] [--sample-banks N]")
    exit(arguments.contains("--help") ? 0 : 2)
}
let port = option("--port").flatMap(Int.init) ?? 8080

let store = try await SampleBanks.openStore(database, sampleBanks: option("--sample-banks").flatMap(Int.init))

let router = Router()
router.get("health") { _, _ in "ok" }
router.get("banks") { request, _ -> BankPage in
    let page = request.uri.queryParameters.get("page", as: Int.self) ?? 0
    let size = request.uri.queryParameters.get("size", as: Int.self) ?? 20
    guard page >= 0, (1...500).contains(size) else { throw HTTPError(.badRequest, message: "page must be 0 or more, size 1 to 500") }
    return try await BankPage.read(page: page, pageSize: size, from: store)
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
