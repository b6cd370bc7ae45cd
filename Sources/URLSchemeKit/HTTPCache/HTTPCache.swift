import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The store and the origin link behind `HTTPCacheURLProtocol`: every `http(s)`
/// response a session loads is kept by the HTTP caching rules (RFC 9111 as a
/// private cache, with `stale-while-revalidate`, `stale-if-error` and
/// `immutable`), and answered from here when fresh, revalidated when stale,
/// and served when the origin cannot be reached.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.installURLSchemeKit(URLSchemeKitEnvironment(httpCache: HTTPCache(directory: folder)))
/// let session = URLSession(configuration: configuration)
/// ```
///
/// Entries live in an `ImageURLCache` of its own (memory and disk tiers;
/// files written atomically and checksummed, least recently used out first),
/// so instances and processes on one directory share what they store. The
/// offline state of each origin host is public (`isOffline(host:)`) and
/// changes are posted as `reachabilityDidChangeNotification`.
public final class HTTPCache: Sendable {
    /// Limits and offline behaviour.
    public struct Configuration: Sendable {
        /// Bytes of responses kept in memory.
        public var memoryCapacity = 32 << 20
        /// Bytes of entry files kept on disk (0: memory only).
        public var diskCapacity = 512 << 20
        /// The largest response body forwarded (and so stored), in bytes. A body
        /// is held whole in memory and reported in one piece, so a larger one
        /// fails with `URLError(.dataLengthExceedsMaximum)`.
        public var maximumBodySize = 32 << 20
        /// How old a stored response may be and still answer when the origin
        /// cannot be reached; nil: any age.
        public var maximumOfflineAge: TimeInterval?
        /// Whether offline answers may also use responses marked `no-cache` or
        /// `must-revalidate`, which RFC 9111 forbids serving stale even when
        /// disconnected: for an app that prefers an outdated page to none.
        public var offlineOverridesRevalidation = false
        /// The first back-off after a host is found unreachable, in seconds; it
        /// doubles on each further failure, up to `maximumBackoff`.
        public var initialBackoff: TimeInterval = 1
        /// The longest back-off, in seconds.
        public var maximumBackoff: TimeInterval = 60

        /// The defaults: 32 MiB in memory, 512 MiB on disk, bodies up to 32 MiB,
        /// offline answers of any age (not of responses that forbid it),
        /// back-off from 1 s to 60 s.
        public init() {}
    }

    /// Posted (on no particular thread) when a host goes offline or comes back;
    /// `object` is the cache, `userInfo` has `"host"` (String) and `"isOffline"` (Bool).
    public static let reachabilityDidChangeNotification = Notification.Name("URLSchemeKit.HTTPCache.reachabilityDidChange")

    /// A cache for the whole process with the default configuration, under
    /// `$XDG_CACHE_HOME/URLSchemeKit/HTTPCache` (by default `~/.cache/…`).
    public static let standard = HTTPCache(directory: ImageURLCache.cacheHome.appendingPathComponent("URLSchemeKit/HTTPCache", isDirectory: true))

    /// Where entry files live; nil for a memory-only cache.
    public var directory: URL? { storage.directory }
    /// The limits and offline behaviour this cache was created with.
    public let configuration: Configuration

    let storage: ImageURLCache
    let forwarder: HTTPForwarder
    let reachability: HostReachability
    /// The time source of every age calculation (tests move it forward).
    let clock: @Sendable () -> Date
    /// Stale responses being refreshed in the background, so each is refreshed once.
    let revalidating = Mutex<Set<CacheKey>>([])
    /// The name a session's configuration carries to find this cache.
    let identifier = UUID().uuidString
    /// Parsed entries and their last answers, for repeated hits.
    let hits: HitMemo

    /// A cache storing under `directory` (created if missing; nil: in memory only).
    public convenience init(directory: URL?, configuration: Configuration = Configuration()) {
        self.init(directory: directory, configuration: configuration, clock: { Date() })
    }

    init(directory: URL?, configuration: Configuration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
        storage = ImageURLCache(memoryCapacity: configuration.memoryCapacity, diskCapacity: configuration.diskCapacity,
                                directory: directory)
        forwarder = HTTPForwarder(maximumBodySize: configuration.maximumBodySize, clock: clock)
        hits = HitMemo(capacity: configuration.memoryCapacity / 4)
        let box = WeakBox()
        reachability = HostReachability(initialBackoff: configuration.initialBackoff,
                                        maximumBackoff: configuration.maximumBackoff) { host, offline in
            guard let cache = box.cache else { return }
            NotificationCenter.default.post(name: HTTPCache.reachabilityDidChangeNotification, object: cache,
                                            userInfo: ["host": host, "isOffline": offline])
        }
        box.cache = self
    }

    // MARK: Offline state

    /// Whether `host` failed to answer last time and has not answered since.
    public func isOffline(host: String) -> Bool { reachability.isOffline(host) }

    /// Every host taken as offline now (lower-case).
    public var offlineHosts: Set<String> { reachability.offlineHosts }

    // MARK: The store

    /// Bytes of stored responses in memory.
    public var currentMemoryUsage: Int { storage.currentMemoryUsage }
    /// Bytes of entry files on disk, including what other instances stored.
    public var currentDiskUsage: Int { storage.currentDiskUsage }

    /// Forgets every stored response, in memory and on disk.
    public func removeAllCachedResponses() { storage.removeAllCachedResponses() }

    /// The stored response for `request` (any age, `Vary` honoured), as the
    /// protocol would serve it from the store; nil when none is stored.
    public func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        lookup(request).entry?.cachedResponse
    }

    /// The stored response selected for `request`, or nil; `varyMiss` when
    /// responses are stored for its URL but for other request header values.
    func lookup(_ request: URLRequest, memoryOnly: Bool = false) -> (entry: HTTPCacheEntry?, varyMiss: Bool) {
        guard let url = request.url, let key = CacheKey(resource: url) else { return (nil, false) }
        let read = { (key: CacheKey) -> CachedURLResponse? in
            memoryOnly ? self.storage.memoryCachedResponse(for: key) : self.storage.cachedResponse(for: key)
        }
        guard let primary = read(key) else { return (nil, false) }
        if let index = VaryIndex(primary) {
            let values = HTTPCacheEntry.values(of: index.names, in: request)
            guard let cached = read(index.key(for: key, values: values)), let entry = hits.entry(for: cached),
                  entry.varyMatches(request) else { return (nil, true) }
            return (entry, false)
        }
        guard let entry = hits.entry(for: primary) else { return (nil, false) }
        return entry.varyMatches(request) ? (entry, false) : (nil, true)
    }

    /// Stores `entry` as the answer to `request`: under the URL, or, when it
    /// varies by request headers, as one variant beside the others.
    func store(_ entry: HTTPCacheEntry, for request: URLRequest) {
        guard let url = request.url, let key = CacheKey(resource: url), let cached = entry.cachedResponse else { return }
        let names = entry.varyNames
        guard !names.isEmpty else {
            storage.store(cached, for: key)
            return
        }
        // Reuse the index's generation so the variants stored before stay reachable.
        let index = storage.cachedResponse(for: key).flatMap(VaryIndex.init).flatMap { $0.names == names ? $0 : nil }
            ?? VaryIndex(names: names)
        if let indexResponse = index.cachedResponse(url: url) { storage.store(indexResponse, for: key) }
        storage.store(cached, for: index.key(for: key, values: entry.varyValues))
    }

    /// Stores `entry`, a stored response freshened by a 304 or a HEAD response
    /// (new fields and times, the same body): at once in memory, and on disk a
    /// moment later, once for however many refreshes come in between. Rewriting
    /// a large body on every revalidation would cost more than the revalidation
    /// saves; a refresh lost with the process costs one more revalidation.
    func refresh(_ entry: HTTPCacheEntry, for request: URLRequest) {
        guard let url = request.url, let key = CacheKey(resource: url), let cached = entry.cachedResponse else { return }
        let selected = entry.varyNames.isEmpty ? key
            : storage.cachedResponse(for: key).flatMap(VaryIndex.init).map { $0.key(for: key, values: entry.varyValues) }
        guard let selected else { return store(entry, for: request) }
        storage.store(CachedURLResponse(response: cached.response, data: cached.data, userInfo: cached.userInfo,
                                        storagePolicy: .allowedInMemoryOnly), for: selected)
        guard storage.directory != nil, pendingRefreshes.withLock({ $0.insert(selected).inserted }) else { return }
        Self.refreshQueue.asyncAfter(deadline: .now() + Self.refreshDelay) { [self] in
            _ = pendingRefreshes.withLock { $0.remove(selected) }
            guard let latest = storage.memoryCachedResponse(for: selected) else { return }
            storage.store(CachedURLResponse(response: latest.response, data: latest.data, userInfo: latest.userInfo,
                                            storagePolicy: .allowed), for: selected)
        }
    }

    /// Keys whose refreshed entry waits to be written to disk.
    private let pendingRefreshes = Mutex<Set<CacheKey>>([])
    private static let refreshQueue = DispatchQueue(label: "URLSchemeKit.HTTPCache.refresh", qos: .utility)
    static let refreshDelay: DispatchTimeInterval = .milliseconds(500)

    /// Removes what is stored for `url` (every variant).
    func invalidate(_ url: URL) {
        guard let key = CacheKey(resource: url) else { return }
        storage.removeCachedResponse(for: key)
    }
}

/// Lets the reachability callback reach the cache that owns it without a cycle.
private final class WeakBox: @unchecked Sendable {
    // @unchecked Sendable: `cache` is written once, in HTTPCache.init, before
    // any load can make the reachability callback read it.
    weak var cache: HTTPCache?
}

/// The entry stored under a URL whose responses vary by request headers: the
/// header names, and a generation that names this set of variants (an
/// invalidation removes the index, so variants of an older generation are
/// never selected again).
struct VaryIndex {
    let names: [String]
    let generation: String

    private static let namesKey = "uskhttp.varyIndex"
    private static let generationKey = "uskhttp.varyGeneration"

    init(names: [String], generation: String = UUID().uuidString) {
        self.names = names
        self.generation = generation
    }

    init?(_ cached: CachedURLResponse) {
        guard let info = cached.userInfo as? [String: String], let names = info[Self.namesKey],
              let generation = info[Self.generationKey] else { return nil }
        self.init(names: names.split(separator: ",").map(String.init), generation: generation)
    }

    /// The key of the variant selected by `values` (the request's values of `names`).
    func key(for primary: CacheKey, values: [String: String]) -> CacheKey {
        let selector = names.map { name in values[name].map { "\(name)=\($0)" } ?? "\(name)!" }
        return primary.variant(generation + "\n" + selector.joined(separator: "\n"))
    }

    func cachedResponse(url: URL) -> CachedURLResponse? {
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil) else { return nil }
        return CachedURLResponse(response: response, data: Data(),
                                 userInfo: [Self.namesKey: names.joined(separator: ","), Self.generationKey: generation],
                                 storagePolicy: .allowed)
    }
}
