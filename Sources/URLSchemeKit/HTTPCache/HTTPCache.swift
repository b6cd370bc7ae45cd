import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The store and the origin link behind ``HTTPCacheURLProtocol``: every `http(s)`
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
/// Entries live in a ``QueryKeyedURLCache`` of its own (memory and disk tiers;
/// files written atomically and checksummed, least recently used out first),
/// so instances and processes on one directory share what they store. The
/// offline state of each origin (scheme, host and port) is public
/// (`isOffline(_:)`) and changes are posted as `reachabilityDidChangeNotification`.
public final class HTTPCache: Sendable {
    /// Limits and offline behaviour.
    public struct Configuration: Sendable {
        /// Bytes of responses kept in memory.
        public var memoryCapacity = 32 << 20
        /// Bytes of entry files kept on disk (0: memory only).
        public var diskCapacity = 512 << 20
        /// The largest response body stored, in bytes; a larger one loads, and
        /// is passed on without being stored.
        public var maximumBodySize = 32 << 20
        /// The largest response body loaded at all, in bytes: a larger one (an
        /// origin that never ends its body) fails with
        /// `URLError(.dataLengthExceedsMaximum)` naming this limit. Past
        /// `spoolThreshold` a body arriving goes to a file, not memory, so this
        /// bounds disk, not memory.
        public var maximumResponseSize = 4 << 30
        /// Bytes of one body held in memory while it arrives; past them it goes
        /// to a spool file under the temporary directory.
        public var spoolThreshold = 4 << 20
        /// How old a stored response may be and still answer when the origin
        /// cannot be reached; nil: any age.
        public var maximumOfflineAge: TimeInterval?
        /// Whether the cache serves one user only (an app on a device), or many
        /// (a server fetching for its users: the default, and the safe one).
        /// Shared: a request with credentials (`Authorization`,
        /// `Proxy-Authorization`, `Cookie`, user info) is answered from a
        /// partition of its own, by a keyed hash of them, and the rules of a
        /// shared cache hold for the rest (RFC 9111 §3.5: no `private` answer is
        /// shared, `s-maxage` counts). Private: one store for every request,
        /// credentials or not, by the rules of a private cache, as a browser
        /// keeps one per user profile.
        public var isPrivate = false
        /// Whether offline answers may also use responses marked `no-cache` or
        /// `must-revalidate`, which RFC 9111 forbids serving stale even when
        /// disconnected: for an app that prefers an outdated page to none.
        public var offlineOverridesRevalidation = false
        /// The first back-off after a host is found unreachable, in seconds; it
        /// doubles on each further failure, up to `maximumBackoff`.
        public var initialBackoff: TimeInterval = 1
        /// The longest back-off, in seconds.
        public var maximumBackoff: TimeInterval = 60

        /// The defaults: 32 MiB in memory, 512 MiB on disk, bodies stored up to
        /// 32 MiB and loaded up to 4 GiB (past 4 MiB in a spool file),
        /// offline answers of any age (not of responses that forbid it),
        /// back-off from 1 s to 60 s.
        public init() {}
    }

    /// Posted (on no particular thread) when an origin goes offline or comes back;
    /// `object` is the cache, `userInfo` has `"origin"` (String, `scheme://host:port`),
    /// `"host"` (String) and `"isOffline"` (Bool).
    public static let reachabilityDidChangeNotification = Notification.Name("URLSchemeKit.HTTPCache.reachabilityDidChange")

    /// A cache for the whole process with the default configuration, under
    /// `$XDG_CACHE_HOME/URLSchemeKit/HTTPCache` (by default `~/.cache/…`).
    public static let standard = HTTPCache(directory: QueryKeyedURLCache.cacheHome.appendingPathComponent("URLSchemeKit/HTTPCache", isDirectory: true))

    /// Where entry files live; nil for a memory-only cache.
    public var directory: URL? { storage.directory }
    /// The limits and offline behaviour this cache was created with.
    public let configuration: Configuration

    let storage: QueryKeyedURLCache
    let forwarder: HTTPForwarder
    let reachability: OriginReachability
    /// The time source of every age calculation (tests move it forward).
    let clock: @Sendable () -> Date
    /// Stale responses being refreshed in the background, so each is refreshed once.
    let revalidating = Mutex<Set<CacheKey>>([])
    /// The name a session's configuration carries to find this cache.
    let identifier = UUID().uuidString
    /// Parsed entries and their last answers, for repeated hits.
    let hits: HitMemo
    /// Partition names and stored `Vary` values (keyed hashes).
    let partitions: CachePartitions

    /// A cache storing under `directory` (created if missing; nil: in memory only).
    public convenience init(directory: URL?, configuration: Configuration = Configuration()) {
        self.init(directory: directory, configuration: configuration, clock: { Date() })
    }

    init(directory: URL?, configuration: Configuration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
        storage = QueryKeyedURLCache(memoryCapacity: configuration.memoryCapacity, diskCapacity: configuration.diskCapacity,
                                directory: directory)
        forwarder = HTTPForwarder(maximumResponseSize: configuration.maximumResponseSize,
                                  spoolThreshold: configuration.spoolThreshold, spoolFolder: storage.temporaryDirectory, clock: clock)
        hits = HitMemo(capacity: configuration.memoryCapacity / 4)
        partitions = CachePartitions(directory: directory)
        // Without a disk store, bodies spool to the user's folder under the
        // temporary directory: checked, and swept of dead processes' spools, at start.
        if storage.temporaryDirectory == nil { _ = SpoolFolder.temporary }
        let box = WeakBox()
        reachability = OriginReachability(initialBackoff: configuration.initialBackoff,
                                          maximumBackoff: configuration.maximumBackoff) { origin, offline in
            guard let cache = box.cache else { return }
            NotificationCenter.default.post(name: HTTPCache.reachabilityDidChangeNotification, object: cache,
                                            userInfo: ["origin": origin.description, "host": origin.host, "isOffline": offline])
        }
        box.cache = self
    }

    /// The inner session holds the forwarder (its delegate) until it is
    /// invalidated: without this, every cache ever made kept its session, its
    /// connections and their descriptors for the life of the process.
    deinit {
        forwarder.invalidate()
    }

    // MARK: Offline state

    /// Whether the origin of `url` (its scheme, host and port) failed to answer
    /// last time and has not answered since.
    public func isOffline(_ url: URL) -> Bool { reachability.isOffline(Origin(url)) }

    /// Whether some origin on `host` (any scheme or port) is taken as offline.
    public func isOffline(host: String) -> Bool { offlineHosts.contains(host.lowercased()) }

    /// Every host with an origin taken as offline now (lower-case).
    public var offlineHosts: Set<String> { Set(reachability.offlineOrigins.map(\.host)) }

    // MARK: The store

    /// Bytes of stored responses in memory.
    public var currentMemoryUsage: Int { storage.currentMemoryUsage }
    /// Bytes of entry files on disk, including what other instances stored.
    public var currentDiskUsage: Int { storage.currentDiskUsage }

    /// Forgets every stored response, in memory and on disk.
    public func removeAllCachedResponses() { storage.removeAllCachedResponses() }

    /// The stored response for `request` (any age, `Vary` and partitions
    /// honoured), as the protocol would serve it from the store; nil when none
    /// is stored.
    public func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        lookup(request, partition: partition(for: request)).entry?.cachedResponse
    }

    // MARK: Partitions

    /// The partition `request`'s credentials name; nil for the shared one (and
    /// always in a private cache).
    func partition(for request: URLRequest) -> String? {
        configuration.isPrivate ? nil : partitions.partition(for: request)
    }

    /// The key of `url`'s entries in `partition` (the URL's own key for the shared one).
    private func key(_ key: CacheKey, in partition: String?) -> CacheKey {
        partition.map { key.variant("partition=" + $0) } ?? key
    }

    /// The stored response selected for `request`, or nil; `varyMiss` when
    /// responses are stored for its URL but for other request header values.
    /// A request with credentials sees its own `partition` (`partition(for:)`)
    /// first, then the shared one; one without, the shared one only.
    func lookup(_ request: URLRequest, partition: String?, memoryOnly: Bool = false) -> (entry: HTTPCacheEntry?, varyMiss: Bool) {
        guard let url = request.url, let key = CacheKey(resource: url) else { return (nil, false) }
        let read = { (key: CacheKey) -> CachedURLResponse? in
            memoryOnly ? self.storage.memoryCachedResponse(for: key) : self.storage.cachedResponse(for: key)
        }
        guard let partition else { return lookup(request, at: key, read: read) }
        let own = lookup(request, at: self.key(key, in: partition), read: read)
        if let entry = own.entry {
            // An unsafe method since it was stored invalidated it in every partition.
            let invalidated = read(key.variant(Self.invalidationSuffix)).flatMap(Self.invalidationTime)
            if invalidated.map({ entry.responseTime > $0 }) ?? true { return own }
        }
        let shared = lookup(request, at: key, read: read)
        return (shared.entry, shared.entry == nil && (shared.varyMiss || own.varyMiss))
    }

    private func lookup(_ request: URLRequest, at key: CacheKey,
                        read: (CacheKey) -> CachedURLResponse?) -> (entry: HTTPCacheEntry?, varyMiss: Bool) {
        guard let primary = read(key) else { return (nil, false) }
        let stored = partitions.storedValue
        if let index = VaryIndex(primary) {
            let values = HTTPCacheEntry.values(of: index.names, in: request, stored: stored)
            guard let cached = read(index.key(for: key, values: values)), let entry = hits.entry(for: cached),
                  entry.varyMatches(request, stored: stored) else { return (nil, true) }
            return (entry, false)
        }
        guard let entry = hits.entry(for: primary) else { return (nil, false) }
        return entry.varyMatches(request, stored: stored) ? (entry, false) : (nil, true)
    }

    /// Stores `entry`, the origin's answer to `request` (the request as it was
    /// last sent, redirects followed), when the rules allow, and says whether
    /// it did: in the shared partition when the request had no credentials or
    /// the answer says every user may have it, else in the request's own. A URL
    /// with user info is never stored (its password would be written down).
    /// `bodyFile`, the spool file the body is mapped from, becomes the entry's
    /// file in place when the store writes it.
    @discardableResult
    func store(_ entry: HTTPCacheEntry, for request: URLRequest, bodyFile: SpoolFile? = nil) -> Bool {
        guard let url = request.url, url.user == nil, entry.url.user == nil, let key = CacheKey(resource: url) else { return false }
        let partition = partition(for: request)
        var entry = entry
        entry.isShared = !configuration.isPrivate
            && (partition == nil || HTTPCachePolicy.isSharedDespiteCredentials(entry.cacheControl))
        entry.varyValues = HTTPCacheEntry.values(of: entry.varyNames, in: request, stored: partitions.storedValue)
        if !configuration.isPrivate { entry.removeUserFields() }
        guard entry.body.count <= configuration.maximumBodySize, HTTPCachePolicy.isStorable(entry, request: request),
              let cached = entry.cachedResponse else { return false }
        let base = self.key(key, in: entry.isShared ? nil : partition)
        let names = entry.varyNames
        guard !names.isEmpty else {
            storage.store(cached, for: base, bodyFile: bodyFile)
            return true
        }
        // Reuse the index's generation so the variants stored before stay reachable.
        let index = storage.cachedResponse(for: base).flatMap(VaryIndex.init).flatMap { $0.names == names ? $0 : nil }
            ?? VaryIndex(names: names)
        if let indexResponse = index.cachedResponse(url: url) { storage.store(indexResponse, for: base) }
        storage.store(cached, for: index.key(for: base, values: entry.varyValues), bodyFile: bodyFile)
        return true
    }

    /// Waits until everything stored so far is on disk: the pending
    /// refreshes are written now instead of a moment later, then the store's
    /// write-behind queue is drained. Call it before the process exits (the
    /// CLI does), or before another process reads the directory.
    public func flush() {
        for key in pendingRefreshes.withLock({ Array($0) }) { writeRefresh(key) }
        storage.flush()
    }

    /// Writes a refreshed entry to disk, once however many refreshes came in
    /// between (the refresh delay's timer, or `flush()`, whichever is first).
    private func writeRefresh(_ key: CacheKey) {
        guard pendingRefreshes.withLock({ $0.remove(key) }) != nil,
              let latest = storage.memoryCachedResponse(for: key) else { return }
        storage.store(CachedURLResponse(response: latest.response, data: latest.data, userInfo: latest.userInfo,
                                        storagePolicy: .allowed), for: key)
    }

    /// Stores `entry`, a stored response (as `lookup` gave it) freshened by a
    /// 304 or a HEAD response (new fields and times, the same body): at once in
    /// memory, and on disk a moment later, once for however many refreshes come
    /// in between. Rewriting a large body on every revalidation would cost more
    /// than the revalidation saves; a refresh lost with the process costs one
    /// more revalidation.
    func refresh(_ entry: HTTPCacheEntry, for request: URLRequest) {
        var entry = entry
        if !configuration.isPrivate { entry.removeUserFields() }
        guard let url = request.url, let key = CacheKey(resource: url), let cached = entry.cachedResponse else { return }
        let base = self.key(key, in: entry.isShared ? nil : partition(for: request))
        let selected = entry.varyNames.isEmpty ? base
            : storage.cachedResponse(for: base).flatMap(VaryIndex.init).map { $0.key(for: base, values: entry.varyValues) }
        guard let selected else { return }
        storage.store(CachedURLResponse(response: cached.response, data: cached.data, userInfo: cached.userInfo,
                                        storagePolicy: .allowedInMemoryOnly), for: selected)
        guard storage.directory != nil, pendingRefreshes.withLock({ $0.insert(selected).inserted }) else { return }
        Self.refreshQueue.asyncAfter(deadline: .now() + Self.refreshDelay) { [self] in writeRefresh(selected) }
    }

    /// Keys whose refreshed entry waits to be written to disk.
    private let pendingRefreshes = Mutex<Set<CacheKey>>([])
    private static let refreshQueue = DispatchQueue(label: "URLSchemeKit.HTTPCache.refresh", qos: .utility)
    static let refreshDelay: DispatchTimeInterval = .milliseconds(500)

    /// Removes what is stored for `url` in every partition: the shared entry
    /// (every variant) at once, and the others by a note of the time, which
    /// makes every entry stored before it a miss (partitions cannot be listed:
    /// their names are hashes of credentials the cache does not keep).
    func invalidate(_ url: URL) {
        guard let key = CacheKey(resource: url) else { return }
        storage.removeCachedResponse(for: key)
        guard !configuration.isPrivate,
              let note = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil) else { return }
        storage.store(CachedURLResponse(response: note, data: Data(),
                                        userInfo: [Self.invalidationInfo: String(clock().timeIntervalSince1970)],
                                        storagePolicy: .allowed), for: key.variant(Self.invalidationSuffix))
    }

    private static let invalidationSuffix = "invalidated"
    private static let invalidationInfo = "uskhttp.invalidatedAt"

    private static func invalidationTime(_ note: CachedURLResponse) -> Date? {
        (note.userInfo?[invalidationInfo] as? String).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
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
