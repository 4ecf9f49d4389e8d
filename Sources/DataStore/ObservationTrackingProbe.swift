#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Observation

/// Tells whether observation tracking (`withObservationTracking`, `Observations`, SwiftUI) is in
/// progress on this thread, so that an object read without it needs no registrar: reads outside
/// tracking are most reads, and a registrar is two allocations and a lock per object.
///
/// Observation keeps no public record of tracking in progress, but it records every access made
/// during tracking in a set of key paths, and hashing a key path hashes its subscript's index. So
/// the probe is a read of a key path whose index, when hashed, raises a flag for this thread: a
/// read under tracking raises it, any other read leaves it down. The probe's registrar belongs
/// to the context, and observes nothing that ever changes.
///
/// Whether Observation still hashes what it records is checked once, by tracking a probe; where it
/// does not, `isTracking` always answers `true` and every read makes its object's registrar.
struct ObservationTrackingProbe {
    private let registrar = ObservationRegistrar()
    // Copied from the statics once per context: a read then pays no one-time-initialisation check.
    private let keyPath = Self.keyPath
    private let flag = Self.flag
    private let works = Self.works

    /// Whether a read by `subject` now is under observation tracking (always `true` when the
    /// probe cannot tell).
    func isTracking(_ subject: ManagedObject) -> Bool {
        guard works else { return true }
        // Observation hashes the probe at other times too (setting up and cancelling a tracking
        // that read it), which may have left the flag raised.
        _ = Self.lowerFlag(flag)
        registrar.access(subject, keyPath: keyPath)
        return Self.lowerFlag(flag)
    }

    /// The key path the probe reads: its index raises the flag when hashed.
    private static let keyPath = \ManagedObject.[trackingProbe: Index()]

    /// Whether a tracked read of the probe raises the flag, as the probe needs: asked inside the
    /// tracking, right after the read, since setting the tracking up afterwards hashes the key
    /// path again whatever recording the read did.
    static let works: Bool = {
        let probe = ObservationRegistrar()
        let subject = UnreadSubject()
        var raised = false
        withObservationTracking {
            _ = lowerFlag(flag)
            probe.access(subject, keyPath: \UnreadSubject.[trackingProbe: Index()])
            raised = lowerFlag(flag)
        } onChange: {}
        _ = lowerFlag(flag)
        return raised
    }()

    /// The flag of each thread: set to any non-null value when raised.
    private static let flag: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for observation tracking")
        return key
    }()

    private static func raiseFlag() {
        pthread_setspecific(flag, UnsafeRawPointer(bitPattern: 1))
    }

    /// Whether the flag `key` was raised, lowering it.
    @inline(__always)
    private static func lowerFlag(_ key: pthread_key_t) -> Bool {
        guard pthread_getspecific(key) != nil else { return false }
        pthread_setspecific(key, nil)
        return true
    }

    /// The probe's subscript index: all indices are equal, and hashing one raises the flag.
    struct Index: Hashable, Sendable {
        static func == (_: Index, _: Index) -> Bool { true }
        func hash(into hasher: inout Hasher) { ObservationTrackingProbe.raiseFlag() }
    }

    /// A subject for checking the probe once, before any object exists.
    private final class UnreadSubject: Observable {
        subscript(trackingProbe _: Index) -> Bool { false }
    }
}

extension ManagedObject {
    /// The property the tracking probe reads: never read for its value.
    subscript(trackingProbe _: ObservationTrackingProbe.Index) -> Bool { false }
}
