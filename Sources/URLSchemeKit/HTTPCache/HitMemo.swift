import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What repeated hits on one stored response share: its parsed form, and the
/// last answer built from it. A hit then neither parses the stored fields nor
/// builds a new `HTTPURLResponse` while its `Age` and `Cache-Status` stay the
/// same (they change once a second at most).
///
/// Keyed by the identity of the `CachedURLResponse` the memory tier holds; the
/// memo keeps that object alive, so an identity is never reused while in it.
/// Least recently used out beyond `capacity` bytes of bodies (shared with the
/// memory tier while the entry is there, so this bounds what the memo alone
/// keeps alive).
final class HitMemo: Sendable {
    private struct Item {
        let cached: CachedURLResponse
        let entry: HTTPCacheEntry
        var answer: (headerValue: String, age: String, response: URLResponse)?
    }

    private let items: Mutex<LRUStore<ObjectIdentifier, Item>>

    init(capacity: Int) {
        items = Mutex(LRUStore(capacity: capacity))
    }

    /// The stored object's cost as the memory tier counts it (fields included),
    /// plus the parsed entry and the last answer built from it, which hold as
    /// many fields again.
    private static func cost(_ cached: CachedURLResponse) -> Int {
        let fields = QueryKeyedURLCache.memoryCost(cached, CacheKey(rawValue: "")) - cached.data.count
        return cached.data.count + 3 * fields
    }

    /// `cached` parsed (once per stored object).
    func entry(for cached: CachedURLResponse) -> HTTPCacheEntry? {
        let id = ObjectIdentifier(cached)
        if let known = items.withLock({ $0.value(for: id)?.entry }) { return known }
        guard var entry = HTTPCacheEntry(cached) else { return nil }
        entry.memoKey = id
        let item = Item(cached: cached, entry: entry)
        items.withLock { _ = $0.insert(item, for: id, cost: Self.cost(cached)) }
        return entry
    }

    /// The answer last built for `entry` with these `Age` and `Cache-Status`
    /// values, else the one `build` makes (then kept).
    func answer(for entry: HTTPCacheEntry, headerValue: String, age: String, build: () -> URLResponse) -> URLResponse {
        guard let id = entry.memoKey else { return build() }
        if let last = items.withLock({ $0.value(for: id)?.answer }), last.headerValue == headerValue, last.age == age {
            return last.response
        }
        let response = build()
        items.withLock { items in
            guard var item = items.value(for: id) else { return }
            item.answer = (headerValue, age, response)
            _ = items.insert(item, for: id, cost: Self.cost(item.cached))
        }
        return response
    }
}
