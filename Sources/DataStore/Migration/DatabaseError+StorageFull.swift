import GRDB

extension DatabaseError {
    /// Whether SQLite found no room on the disk (`SQLITE_FULL`: a write failed with `ENOSPC`).
    /// A write refused for a quota or a limit on file sizes is an I/O error, as SQLite reports it.
    var isStorageFull: Bool { resultCode == .SQLITE_FULL }
}
