import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster for one test process: made in a temporary folder with PostgreSQL's own
/// `initdb` and `pg_ctl`, listening on a free loopback port with trust authentication, `fsync`
/// off (nothing in it outlives the process), and stopped when the process exits. Clusters left
/// by test processes that were killed are stopped and removed first.
enum ThrowawayCluster {
    /// Why no cluster could be started, once one was tried.
    nonisolated(unsafe) private(set) static var failure: String?

    /// The cluster's folder while it runs, for the exit handler.
    nonisolated(unsafe) private static var running: (folder: String, binaries: String)?

    private static let folderPrefix = "datamodelkit-tests-postgres-"

    /// Starts the cluster; its URL.
    static func start() throws -> String {
        do {
            return try startCluster()
        } catch {
            failure = "no PostgreSQL server: \(error)"
            throw error
        }
    }

    private static func startCluster() throws -> String {
        guard let binaries = serverBinaries() else {
            throw Failure("DATAMODELKIT_POSTGRES_URL is not set and PostgreSQL's server binaries are not installed (Debian's 'postgresql' package)")
        }
        stopClustersOfEndedProcesses(binaries: binaries)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(folderPrefix + "\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder) }
        try run(binaries + "/initdb", ["-D", folder + "/data", "-U", "datamodelkit", "--auth=trust", "-E", "UTF8", "--locale=C"])
        // A port another process takes between our look and the server's start fails the start:
        // a few tries.
        for attempt in 1...5 {
            let port = try freeLoopbackPort()
            do {
                try run(binaries + "/pg_ctl", [
                    "-D", folder + "/data", "-l", folder + "/server.log", "-w",
                    "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start",
                ])
            } catch where attempt < 5 {
                continue
            }
            running = (folder, binaries)
            atexit { ThrowawayCluster.stop() }
            try run(binaries + "/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "datamodelkit", "datamodelkit"])
            return "postgresql://datamodelkit@127.0.0.1:\(port)/datamodelkit"
        }
        throw Failure("the cluster did not start")
    }

    /// Stops the cluster at once and removes its folder.
    private static func stop() {
        guard let (folder, binaries) = running else { return }
        running = nil
        try? run(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The newest installed server's `bin` folder (`/usr/lib/postgresql/16/bin`).
    private static func serverBinaries() -> String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.compactMap(Int.init).sorted().last.map { "/usr/lib/postgresql/\($0)/bin" }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") ? $0 : nil }
    }

    /// Clusters whose test process no longer exists: a run that was killed leaves its server.
    private static func stopClustersOfEndedProcesses(binaries: String) {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(folderPrefix) {
            guard let pid = Int32(name.dropFirst(folderPrefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = temporary + "/" + name
            try? run(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Runs a server binary to its end: as the `postgres` account when this process is root,
    /// since PostgreSQL refuses to run as root. What it prints goes to a file, not a pipe: the
    /// server `pg_ctl` starts would hold a pipe open for as long as it runs. Spawned and waited
    /// for with POSIX calls, not `Process`, whose exit notification needs a thread of the pool
    /// that the tests waiting for this server may all hold.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("datamodelkit-postgres-command-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure("cannot run \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure("\((executable as NSString).lastPathComponent) failed (status \(status)): \(printed)")
        }
    }

    /// A loopback port no socket is bound to now: the one the system picks for port 0.
    private static func freeLoopbackPort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure("no socket for a port: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Failure("no free loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
