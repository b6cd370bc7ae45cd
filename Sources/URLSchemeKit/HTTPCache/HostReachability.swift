import Foundation
import Synchronization

/// Which origins the HTTP cache currently takes as offline, with a growing
/// back-off per host:
///
///     online ──failure──► offline (back-off b: 1 s, then 2 s, 4 s … up to 60 s)
///        ▲                   │  within b: loads with a stored response are answered
///        └─────success───────┘  from the store at once; after b the next load probes
///
/// A host is offline from its first unreachable failure until its first
/// success. Changes are posted as `HTTPCache.reachabilityDidChangeNotification`.
final class HostReachability: Sendable {
    private struct HostState {
        var backoff: TimeInterval
        var retryAfter: Date
    }

    private let hosts = Mutex<[String: HostState]>([:])
    private let initialBackoff: TimeInterval
    private let maximumBackoff: TimeInterval
    /// Called outside the lock with (host, isOffline) whenever a host changes state.
    private let onChange: @Sendable (String, Bool) -> Void

    init(initialBackoff: TimeInterval, maximumBackoff: TimeInterval, onChange: @escaping @Sendable (String, Bool) -> Void) {
        self.initialBackoff = max(0, initialBackoff)
        self.maximumBackoff = max(initialBackoff, maximumBackoff)
        self.onChange = onChange
    }

    /// Whether `host` failed last and has not answered since.
    func isOffline(_ host: String) -> Bool {
        hosts.withLock { $0[host.lowercased()] != nil }
    }

    /// Every host taken as offline now.
    var offlineHosts: Set<String> { hosts.withLock { Set($0.keys) } }

    /// Whether `host` is within its back-off: loads should not wait for it.
    func isBackingOff(_ host: String, at now: Date) -> Bool {
        hosts.withLock { $0[host.lowercased()].map { now < $0.retryAfter } ?? false }
    }

    /// Notes that `host` could not be reached: starts or doubles its back-off.
    func recordFailure(_ host: String, at now: Date) {
        let host = host.lowercased()
        let wasOnline = hosts.withLock { hosts -> Bool in
            let backoff = hosts[host].map { min($0.backoff * 2, maximumBackoff) } ?? initialBackoff
            defer { hosts[host] = HostState(backoff: backoff, retryAfter: now.addingTimeInterval(backoff)) }
            return hosts[host] == nil
        }
        if wasOnline { onChange(host, true) }
    }

    /// Notes that `host` answered: it is online again.
    func recordSuccess(_ host: String) {
        let host = host.lowercased()
        let wasOffline = hosts.withLock { $0.removeValue(forKey: host) != nil }
        if wasOffline { onChange(host, false) }
    }
}
