import DataModelParser
import DataStore
import Foundation

/// Opens the store with the current version of the bundle, which migrates it as an app's first
/// launch after an update does; prints `ready` just before and `migrated` once the store is open.
///
/// `fileSizeLimit` makes every file write past that size fail, as a quota does; `unprivileged`
/// drops root's rights first, so a file without write permission is read-only for this process
/// too. A failed migration prints `failed: `, the error's case and message, and exits with 1.
func migrateOnce(store path: String, bundle: String, fileSizeLimit: Int?, unprivileged: Bool) throws -> Never {
    let versions = try ModelLoader().loadVersions(bundle).versions.map(\.model)
    let model = ManagedObjectModel(model: versions[versions.count - 1], versions: versions)
    if unprivileged && getuid() == 0 {
        let nobody: UInt32 = 65534
        guard setgid(nobody) == 0, setuid(nobody) == 0 else { throw POSIXError(.EPERM) }
    }
    if let fileSizeLimit {
        // Past the limit a write fails with EFBIG instead of the process being stopped by SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: rlim_t(fileSizeLimit), rlim_max: rlim_t(fileSizeLimit))
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { throw POSIXError(.EPERM) }
    }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    do {
        _ = try PersistentStore(url: URL(fileURLWithPath: path), model: model)
    } catch {
        // The error's case first, for the tests to match, then its message.
        let kind = switch error {
        case .readOnlyFile: "readOnlyFile"
        case .migration(.database): "database"
        default: "other"
        }
        FileHandle.standardOutput.write(Data("failed: \(kind): \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
    exit(0)
}
