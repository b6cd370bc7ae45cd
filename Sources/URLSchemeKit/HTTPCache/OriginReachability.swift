import Foundation
import Synchronization

/// Which origins (scheme, host, port) the HTTP cache currently takes as
/// offline, with a growing back-off per origin: one server that does not
/// answer says nothing of another port on the same host (RFC 9111 §4.2.4
/// lets a stale copy answer only when its own origin cannot be reached).
///
///     online ──failure──► offline (back-off b: 1 s, then 2 s, 4 s … up to 60 s)
///        ▲                   │  within b: loads with a stored response are answered
///        └─────success───────┘  from the store at once; after b the next load probes
///
/// An origin is offline from its first unreachable failure until its first
/// success. Changes are posted as `HTTPCache.reachabilityDidChangeNotification`.
final class OriginReachability: Sendable {
    private struct OriginState {
        var backoff: TimeInterval
        var retryAfter: Date
    }

    private let origins = Mutex<[Origin: OriginState]>([:])
    private let initialBackoff: TimeInterval
    private let maximumBackoff: TimeInterval
    /// Called outside the lock with (origin, isOffline) whenever an origin changes state.
    private let onChange: @Sendable (Origin, Bool) -> Void

    init(initialBackoff: TimeInterval, maximumBackoff: TimeInterval, onChange: @escaping @Sendable (Origin, Bool) -> Void) {
        self.initialBackoff = max(0, initialBackoff)
        self.maximumBackoff = max(initialBackoff, maximumBackoff)
        self.onChange = onChange
    }

    /// Whether `origin` failed last and has not answered since.
    func isOffline(_ origin: Origin) -> Bool {
        origins.withLock { $0[origin] != nil }
    }

    /// Every origin taken as offline now.
    var offlineOrigins: Set<Origin> { origins.withLock { Set($0.keys) } }

    /// Whether `origin` is within its back-off: loads should not wait for it.
    func isBackingOff(_ origin: Origin, at now: Date) -> Bool {
        origins.withLock { $0[origin].map { now < $0.retryAfter } ?? false }
    }

    /// Notes that `origin` could not be reached: starts or doubles its back-off.
    func recordFailure(_ origin: Origin, at now: Date) {
        let wasOnline = origins.withLock { origins -> Bool in
            let backoff = origins[origin].map { min($0.backoff * 2, maximumBackoff) } ?? initialBackoff
            defer { origins[origin] = OriginState(backoff: backoff, retryAfter: now.addingTimeInterval(backoff)) }
            return origins[origin] == nil
        }
        if wasOnline { onChange(origin, true) }
    }

    /// Notes that `origin` answered: it is online again.
    func recordSuccess(_ origin: Origin) {
        let wasOffline = origins.withLock { $0.removeValue(forKey: origin) != nil }
        if wasOffline { onChange(origin, false) }
    }
}
