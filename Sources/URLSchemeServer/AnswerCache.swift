import Foundation
import Synchronization

/// Finished scheme answers in memory, keyed by canonical scheme URL, so a
/// repeated request is answered on the connection's own queue: no work-queue
/// slot, no `URLSession` task, no SHA-256 of the body for its `ETag` (the
/// tag and headers are kept with the bytes). Without it a cached answer
/// went through all three and ran at 0.08× nginx's static throughput.
///
/// Only what any client may be given is kept: a `200` with
/// `Cache-Control: public` and no `Vary` (an answer chosen by a request
/// header is never answered from here), to a request without `Authorization`
/// or `Cookie`. Bounded by total body bytes; past that the oldest stored
/// entries go first. An entry is as fresh as the library's own memory cache,
/// which keys answers the same way (canonical URL, one renderer version per
/// environment).
///
/// A request target that was answered once is also remembered as an alias
/// of its key, so the next request for the same target finds its answer
/// without the `URL` and canonical key being made again (they were the
/// largest part of a hit's time); aliases are bounded by their bytes and
/// dropped all at once past that.
final class AnswerCache: Sendable {
    /// The most body bytes kept; 0 keeps nothing.
    let capacity: Int
    private let state: Mutex<State>

    private struct State {
        var entries: [String: HTTPResponse] = [:]
        /// Keys in the order stored, oldest from `head` on (a queue without a deque).
        var order: [String] = []
        var head = 0
        var bytes = 0
        var hits = 0
        var misses = 0
        /// Request targets answered from `entries`, to their keys.
        var aliases: [String: String] = [:]
        var aliasBytes = 0
    }

    /// The most bytes of targets and keys the aliases hold.
    private var aliasCapacity: Int { max(1 << 20, capacity / 16) }

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Mutex(State())
    }

    /// Whether `request`'s answer may come from, or go into, the cache.
    func admits(_ request: HTTPRequest) -> Bool {
        capacity > 0 && request.header("Authorization") == nil && request.header("Cookie") == nil
    }

    /// The answer kept for `key`: the `200`, or a `304` with its validators
    /// when `ifNoneMatch` names its tag. Nil on a miss.
    /// `target`, the request's own target, becomes an alias of `key` on a hit.
    func answer(for key: String, target: String? = nil, ifNoneMatch: String?) -> HTTPResponse? {
        let found = state.withLock { state in
            let entry = state.entries[key]
            if entry == nil { state.misses += 1 } else { state.hits += 1 }
            if entry != nil, let target { alias(target, to: key, in: &state) }
            return entry
        }
        return found.map { Self.validated($0, ifNoneMatch: ifNoneMatch) }
    }

    /// The answer kept for the request target `target` when it was answered
    /// from here before (an alias), counted as a hit; nil (and nothing
    /// counted) otherwise: the caller then looks up the canonical key.
    func answer(forTarget target: String, ifNoneMatch: String?) -> HTTPResponse? {
        let found: HTTPResponse? = state.withLock { state in
            guard let key = state.aliases[target], let entry = state.entries[key] else { return nil }
            state.hits += 1
            return entry
        }
        return found.map { Self.validated($0, ifNoneMatch: ifNoneMatch) }
    }

    private func alias(_ target: String, to key: String, in state: inout State) {
        guard state.aliases[target] == nil else { return }
        let bytes = target.utf8.count + key.utf8.count
        if state.aliasBytes + bytes > aliasCapacity {
            state.aliases = [:]
            state.aliasBytes = 0
        }
        guard bytes <= aliasCapacity else { return }
        state.aliases[target] = key
        state.aliasBytes += bytes
    }

    /// `response`, or the `304` with its validators when `ifNoneMatch` names
    /// its tag: the fields a `200` would have sent that RFC 9110 §15.4.5 asks
    /// of a `304` (`ETag`, `Cache-Control`, `Vary`, `Expires`, `Content-Location`),
    /// so a `format=auto` answer still says what it varies with.
    static func validated(_ response: HTTPResponse, ifNoneMatch: String?) -> HTTPResponse {
        guard response.status == 200, let ifNoneMatch, let tag = response.header("ETag"), SchemeGateway.matches(ifNoneMatch, tag) else { return response }
        return HTTPResponse(status: 304, headers: response.headers.filter { notModifiedFields.contains($0.name) })
    }

    /// What a `304` repeats of its `200` (RFC 9110 §15.4.5; `Date` is added to every answer).
    private static let notModifiedFields: Set<String> = ["ETag", "Cache-Control", "Vary", "Expires", "Content-Location"]

    /// Keeps `response` for `key` when it is a public `200` that varies with nothing and fits.
    /// `target`: the request's own target, made an alias of `key`.
    func store(_ response: HTTPResponse, for key: String, target: String? = nil) {
        guard response.status == 200, response.header("Vary") == nil, response.header("ETag") != nil,
              response.header("Cache-Control")?.hasPrefix("public") == true,
              response.body.count <= capacity / 8 else { return }
        state.withLock { state in
            if let old = state.entries.updateValue(response, forKey: key) {
                state.bytes -= old.body.count
            } else {
                state.order.append(key)
            }
            state.bytes += response.body.count
            if let target { alias(target, to: key, in: &state) }
            while state.bytes > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let gone = state.entries.removeValue(forKey: oldest) { state.bytes -= gone.body.count }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Lookups answered and not since the start, and the entries and body bytes kept now.
    var usage: (hits: Int, misses: Int, entries: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
    }
}
