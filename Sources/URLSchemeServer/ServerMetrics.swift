import Foundation
import Synchronization

/// The counters `/metrics` shows, in Prometheus' text format (version 0.0.4):
/// requests by route and status, the time scheme loads take as a histogram,
/// and the gauges the server reads when asked (loads in progress, queue
/// length, loads cancelled, open connections).
final class ServerMetrics: Sendable {
    /// The upper bounds of the load-time histogram's buckets, in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// A request counter's labels (a struct, not a joined string: no text made per request).
    private struct RouteStatus: Hashable {
        var route: String
        var status: Int
    }

    private struct State {
        var requests: [RouteStatus: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var loadCount = 0
        var loadSeconds = 0.0
    }

    private let state = Mutex(State())

    /// Counts one answered request.
    func countRequest(route: String, status: Int) {
        state.withLock { $0.requests[RouteStatus(route: route, status: status), default: 0] += 1 }
    }

    /// Counts one scheme load that took `seconds`.
    func observeLoad(seconds: Double) {
        state.withLock { state in
            state.loadCount += 1
            state.loadSeconds += seconds
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { state.bucketCounts[index] += 1 }
        }
    }

    /// The text `/metrics` answers, with the gauges given.
    func text(inFlight: Int, queued: Int, cancelled: Int, connections: Int, draining: Bool, answers: (hits: Int, misses: Int, entries: Int, bytes: Int)) -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP urlscheme_requests_total Requests answered, by route and status.")
        lines.append("# TYPE urlscheme_requests_total counter")
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, String($0.key.status)) < ($1.key.route, String($1.key.status)) }) {
            lines.append("urlscheme_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(count)")
        }
        lines.append("# HELP urlscheme_load_seconds Time of scheme loads (render or cache hit), from start to answer.")
        lines.append("# TYPE urlscheme_load_seconds histogram")
        for (index, bound) in Self.buckets.enumerated() {
            lines.append("urlscheme_load_seconds_bucket{le=\"\(bound)\"} \(snapshot.bucketCounts[index])")
        }
        lines.append("urlscheme_load_seconds_bucket{le=\"+Inf\"} \(snapshot.loadCount)")
        lines.append("urlscheme_load_seconds_sum \(snapshot.loadSeconds)")
        lines.append("urlscheme_load_seconds_count \(snapshot.loadCount)")
        lines.append("# HELP urlscheme_loads_in_flight Scheme loads in progress.")
        lines.append("# TYPE urlscheme_loads_in_flight gauge")
        lines.append("urlscheme_loads_in_flight \(inFlight)")
        lines.append("# HELP urlscheme_queue_length Scheme loads waiting for a worker.")
        lines.append("# TYPE urlscheme_queue_length gauge")
        lines.append("urlscheme_queue_length \(queued)")
        lines.append("# HELP urlscheme_loads_cancelled_total Scheme loads dropped from the queue before they started, their clients gone.")
        lines.append("# TYPE urlscheme_loads_cancelled_total counter")
        lines.append("urlscheme_loads_cancelled_total \(cancelled)")
        lines.append("# HELP urlscheme_connections Open client connections.")
        lines.append("# TYPE urlscheme_connections gauge")
        lines.append("urlscheme_connections \(connections)")
        lines.append("# HELP urlscheme_draining 1 while the server drains before stopping.")
        lines.append("# TYPE urlscheme_draining gauge")
        lines.append("urlscheme_draining \(draining ? 1 : 0)")
        lines.append("# HELP urlscheme_answer_cache_lookups_total Scheme requests looked up in the answer cache, by result.")
        lines.append("# TYPE urlscheme_answer_cache_lookups_total counter")
        lines.append("urlscheme_answer_cache_lookups_total{result=\"hit\"} \(answers.hits)")
        lines.append("urlscheme_answer_cache_lookups_total{result=\"miss\"} \(answers.misses)")
        lines.append("# HELP urlscheme_answer_cache_bytes Body bytes (and entries) the answer cache holds.")
        lines.append("# TYPE urlscheme_answer_cache_bytes gauge")
        lines.append("urlscheme_answer_cache_bytes \(answers.bytes)")
        lines.append("# TYPE urlscheme_answer_cache_entries gauge")
        lines.append("urlscheme_answer_cache_entries \(answers.entries)")
        if let resident = Self.residentBytes() {
            lines.append("# HELP process_resident_memory_bytes Resident memory size in bytes.")
            lines.append("# TYPE process_resident_memory_bytes gauge")
            lines.append("process_resident_memory_bytes \(resident)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The process's resident memory from /proc/self/statm (Linux), nil elsewhere.
    private static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
