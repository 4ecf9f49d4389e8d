// The durability and history tests' child process: killed at random moments while it writes, or
// writing a known sequence that the parent reads through the store's history.
//
//     durability-writer save STORE MODEL
//     durability-writer history STORE MODEL
//     durability-writer migrate STORE BUNDLE [--file-size-limit BYTES] [--unprivileged]
//     durability-writer server-write DATABASE_URL WRITER SECONDS
import Foundation

let usage = """
    usage: durability-writer save STORE MODEL
           durability-writer history STORE MODEL
           durability-writer migrate STORE BUNDLE [--file-size-limit BYTES] [--unprivileged]
           durability-writer server-write DATABASE_URL WRITER SECONDS

    """

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "save" where arguments.count == 3:
        try saveUntilKilled(store: arguments[1], model: arguments[2])
    case "history" where arguments.count == 3:
        try writeHistory(store: arguments[1], model: arguments[2])
    case "migrate" where arguments.count >= 3:
        let unprivileged = arguments.contains("--unprivileged")
        arguments.removeAll { $0 == "--unprivileged" }
        let limit = arguments.firstIndex(of: "--file-size-limit").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
        try migrateOnce(store: arguments[1], bundle: arguments[2], fileSizeLimit: limit, unprivileged: unprivileged)
    case "server-write" where arguments.count == 4 && Int(arguments[2]) != nil && Double(arguments[3]) != nil:
        try await writeOnServer(database: arguments[1], writer: Int(arguments[2])!, seconds: Double(arguments[3])!)
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("durability-writer: \(error)\n".utf8))
    exit(1)
}
