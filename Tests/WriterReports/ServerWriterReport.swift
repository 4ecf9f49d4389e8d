import Foundation

/// What a writer process of the PostgreSQL writers' test reports when it ends: its saves, its
/// refused saves, and when each other writer's save reached its results controller.
///
/// Times are `DispatchTime.now().uptimeNanoseconds`: one clock for every process of the machine.
public struct ServerWriterReport: Codable, Sendable {
    public struct Save: Codable, Sendable {
        /// The indexes of the counters the save incremented.
        public var counters: [Int]
        /// The primary key of the marker the save inserted, which tells its change set apart.
        public var marker: Int64
        /// When `save()` returned.
        public var end: UInt64

        public init(counters: [Int], marker: Int64, end: UInt64) {
            (self.counters, self.marker, self.end) = (counters, marker, end)
        }
    }

    public var writer: Int
    public var saves: [Save] = []
    /// Saves refused with `SaveError.conflicts`; any other failure ends the process with an error.
    public var conflicts = 0
    /// When each marker entered this writer's results controller, by primary key.
    public var arrivals: [Int64: UInt64] = [:]

    public init(writer: Int) {
        self.writer = writer
    }
}
