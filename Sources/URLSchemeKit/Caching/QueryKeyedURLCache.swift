import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLCache` keyed by the whole URL, query included: the store the
/// schemes keep their rendered answers in (``URLSchemeKitEnvironment/imageCache``)
/// and ``HTTPCache`` keeps its entries in. Set it as a session's `urlCache`
/// and every URLSchemeKit protocol answers repeat loads from it.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.urlCache = QueryKeyedURLCache(memoryCapacity: 64 << 20, diskCapacity: 512 << 20, directory: cacheFolder)
/// ```
///
/// What it fixes on Linux, where `URLCache` keys entries by host + port + path
/// (so `map://?latitude=1` and `map://?latitude=2` collide, and URLs without a
/// host are never cached):
/// - entries are keyed by `CacheKey`: scheme, host, port, path and the query
///   items in canonical order; the fragment is ignored;
/// - a memory tier, least recently used out first within `memoryCapacity`, and
///   a disk tier within `diskCapacity` under `directory`, one file per entry,
///   written atomically and verified when read: a truncated or corrupted file
///   is deleted and reported as a miss, never served;
/// - files are written behind: a store returns (and the load is answered)
///   before its file is written, on a queue of the cache's; until then the
///   entry answers from the list of pending writes, and `flush()` waits for
///   them (the CLI flushes before it exits);
/// - a new instance on the same directory serves what an earlier one stored
///   and flushed;
/// - one lock serialises all bookkeeping, so one instance may serve many
///   sessions and threads; file reads and writes happen outside it.
public final class QueryKeyedURLCache: URLCache, @unchecked Sendable {
    // @unchecked Sendable: URLCache is declared @unchecked Sendable, and every
    // mutable property of this subclass lives inside `state`, a Mutex.

    private struct MemoryEntry {
        var response: CachedURLResponse
        var stored: Date
    }

    /// A response stored but not yet on disk: what lookups see meanwhile,
    /// and the ticket that says whether it is still the one to write.
    private struct PendingWrite {
        var entry: MemoryEntry
        var ticket: UInt64
        /// The spool file the body is mapped from, to become the entry file in place.
        var bodyFile: SpoolFile?
    }

    private struct State {
        var memory: LRUStore<CacheKey, MemoryEntry>
        var disk: DiskEntryStore?
        /// Stores whose files are not written yet, by key; a removal or a
        /// newer store replaces or drops the entry, and the write then finds
        /// its ticket gone and leaves no file.
        var pending: [CacheKey: PendingWrite] = [:]
        var nextTicket: UInt64 = 0

        /// Body bytes waiting to be written that are held in memory (a
        /// spooled body is a mapped file: page cache, not the process's).
        var pendingBytes: Int { pending.values.reduce(0) { $0 + ($1.bodyFile == nil ? $1.entry.response.data.count : 0) } }
    }

    /// Body bytes allowed to wait for the writer: past this, a store writes
    /// its file itself before it returns, so a flood of stores costs time,
    /// not memory. One store of any size may always wait alone.
    static let maximumPendingBytes = 32 << 20

    private let state: Mutex<State>
    /// Where entry files live; nil for a memory-only cache.
    public let directory: URL?
    /// Where entry files are written before they are renamed into place (nil
    /// for a memory-only cache): spool files made here can become entries.
    let temporaryDirectory: URL?
    /// Entry files are written here, one at a time, after the store returned.
    private let writer = DispatchQueue(label: "URLSchemeKit.QueryKeyedURLCache.writer", qos: .utility)
    /// Disk reads for the session's lookups run here, never on the session's work queue.
    private static let diskQueue = DispatchQueue(label: "URLSchemeKit.QueryKeyedURLCache.disk", qos: .userInitiated, attributes: .concurrent)

    /// A ready cache for the whole process: 64 MiB in memory and 512 MiB on
    /// disk under `$XDG_CACHE_HOME/URLSchemeKit/ImageURLCache` (by default
    /// `~/.cache/URLSchemeKit/ImageURLCache`; the folder keeps the type's
    /// former name so that entries stored before the rename are still found).
    public static let standard = QueryKeyedURLCache(memoryCapacity: 64 << 20, diskCapacity: 512 << 20,
                                              directory: cacheHome.appendingPathComponent("URLSchemeKit/ImageURLCache", isDirectory: true))

    /// The user's cache directory: `$XDG_CACHE_HOME`, else `~/.cache`.
    static var cacheHome: URL {
        ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
    }

    /// Creates a cache holding at most `memoryCapacity` bytes in memory and
    /// `diskCapacity` bytes of files in `directory` (created if missing, private
    /// to the user: 0700, files 0600). With
    /// no directory, or a disk capacity of 0, the cache lives in memory only.
    public init(memoryCapacity: Int, diskCapacity: Int, directory: URL? = nil) {
        let disk = diskCapacity > 0 ? directory.flatMap { DiskEntryStore(directory: $0, capacity: diskCapacity) } : nil
        let diskDirectory = disk?.directory
        self.directory = diskDirectory
        temporaryDirectory = disk?.temporaryDirectory
        state = Mutex(State(memory: LRUStore(capacity: memoryCapacity), disk: disk))
        // URLCache's own storage stays empty: every method that touches it is
        // overridden. Give it a directory that already exists so that it does
        // not create one of its own under ~/.cache.
        let inertDirectory = diskDirectory ?? FileManager.default.temporaryDirectory
        #if canImport(FoundationNetworking)
        super.init(memoryCapacity: 0, diskCapacity: 0, diskPath: inertDirectory.path)
        #else
        super.init(memoryCapacity: 0, diskCapacity: 0, directory: inertDirectory)
        #endif
    }

    // MARK: Capacities and usage

    public override var memoryCapacity: Int {
        get { state.withLock { $0.memory.capacity } }
        set { state.withLock { _ = $0.memory.setCapacity(newValue) } }
    }

    /// The disk tier's capacity (0 when the cache has no directory).
    public override var diskCapacity: Int {
        get { state.withLock { $0.disk?.capacity ?? 0 } }
        set { state.withLock { $0.disk?.setCapacity(newValue) } }
    }

    /// Bytes of response bodies and keys held in memory.
    public override var currentMemoryUsage: Int {
        state.withLock { $0.memory.totalCost }
    }

    /// Bytes of entry files in `directory`, including those earlier instances
    /// left, once the files being written behind are written (`flush()`).
    public override var currentDiskUsage: Int {
        flush()
        return state.withLock { state in
            state.disk?.scanIfNeeded()
            return state.disk?.totalSize ?? 0
        }
    }

    // MARK: Reading

    public override func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        guard let key = CacheKey(request: request) else { return nil }
        return cachedResponse(for: key)
    }

    /// The entry stored for `key`, from memory or else from disk (then kept in memory).
    func cachedResponse(for key: CacheKey) -> CachedURLResponse? {
        memoryHit(key) ?? diskHit(key)
    }

    /// Waits until every response stored so far is written to disk (or
    /// dropped, when removed meanwhile or too large for the disk tier). Call it
    /// before the process exits, or before another instance or process reads
    /// the directory.
    public func flush() {
        writer.sync {}
    }

    /// The session's lookup before each task. Answers a memory hit at once, reads
    /// the disk on a queue of its own, and skips the lookup for the reload
    /// policies: the Linux session would otherwise hand the hit to the protocol
    /// even for `.reloadIgnoringLocalCacheData`.
    public override func getCachedResponse(
        for dataTask: URLSessionDataTask,
        completionHandler: @Sendable @escaping (CachedURLResponse?) -> Void
    ) {
        // Scheme answers are stored under their environment's partition and
        // renderer version, which only `SchemeURLProtocol` knows: it looks them
        // up itself, so the session's lookup by URL alone is skipped for them.
        guard let request = dataTask.currentRequest, Self.readsCache(request.cachePolicy),
              Self.isHTTP(request.url), let key = CacheKey(request: request) else {
            completionHandler(nil)
            return
        }
        if let hit = memoryHit(key) {
            completionHandler(hit)
            return
        }
        guard state.withLock({ $0.disk != nil }) else {
            completionHandler(nil)
            return
        }
        Self.diskQueue.async {
            completionHandler(self.diskHit(key))
        }
    }

    private static func isHTTP(_ url: URL?) -> Bool {
        guard let scheme = url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Whether a request with this policy may be answered from a cache.
    static func readsCache(_ policy: URLRequest.CachePolicy) -> Bool {
        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData, .reloadRevalidatingCacheData:
            return false
        default:
            return true
        }
    }

    /// The entry stored for `key` if it is in memory; never reads the disk.
    func memoryCachedResponse(for key: CacheKey) -> CachedURLResponse? {
        memoryHit(key)
    }

    private func memoryHit(_ key: CacheKey) -> CachedURLResponse? {
        state.withLock { $0.memory.value(for: key)?.response ?? $0.pending[key]?.entry.response }
    }

    private func diskHit(_ key: CacheKey) -> CachedURLResponse? {
        guard let disk = state.withLock({ $0.disk?.files }) else { return nil }
        let name = DiskEntryStore.fileName(for: key)
        guard let data = disk.readFile(name) else { return nil }
        guard let response = CacheEntryFile.decode(data, expecting: key) else {
            // Truncated, corrupted or written by something else: never serve it.
            state.withLock { $0.disk?.remove(name) }
            return nil
        }
        state.withLock { state in
            // Removed, or stored anew, while the file was read: the newer state stands.
            guard state.disk?.touch(name, size: data.count) == true, state.pending[key] == nil,
                  state.memory.value(for: key) == nil else { return }
            _ = state.memory.insert(MemoryEntry(response: response, stored: Date()), for: key,
                                cost: Self.memoryCost(response, key))
        }
        return response
    }

    // MARK: Writing

    public override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
        guard let key = CacheKey(request: request) else { return }
        store(cachedResponse, for: key)
    }

    /// Stores a response under `key`: in memory unless the policy is `.notAllowed`,
    /// and, when the policy is `.allowed` and the cache has a directory, on
    /// disk a moment later (write-behind; `flush()` waits for it). A
    /// `bodyFile` the response's body is mapped from (a spool file in
    /// `temporaryDirectory`) becomes the entry's file in place.
    func store(_ response: CachedURLResponse, for key: CacheKey, bodyFile: SpoolFile? = nil) {
        guard response.storagePolicy != .notAllowed else { return }
        let entry = MemoryEntry(response: response, stored: Date())
        let write = state.withLock { state -> (ticket: UInt64, now: Bool)? in
            _ = state.memory.insert(entry, for: key, cost: Self.memoryCost(response, key))
            guard response.storagePolicy == .allowed, state.disk != nil else {
                state.pending[key] = nil
                return nil
            }
            state.pending[key] = nil
            let waiting = state.pendingBytes
            state.nextTicket += 1
            state.pending[key] = PendingWrite(entry: entry, ticket: state.nextTicket, bodyFile: bodyFile)
            return (state.nextTicket, bodyFile == nil && waiting > 0 && waiting + response.data.count > Self.maximumPendingBytes)
        }
        guard let write else { return }
        if write.now {
            self.write(response, for: key, ticket: write.ticket, bodyFile: bodyFile)
        } else {
            writer.async { self.write(response, for: key, ticket: write.ticket, bodyFile: bodyFile) }
        }
    }

    /// Writes a pending store's file and renames it into place, unless the
    /// store was removed or replaced meanwhile. A crash before the rename
    /// leaves a temporary file, never a damaged entry. A spool file holding
    /// the body is finished in place (prefix written over, fields appended)
    /// rather than the body written again.
    private func write(_ response: CachedURLResponse, for key: CacheKey, ticket: UInt64, bodyFile: SpoolFile?) {
        let isCurrent = { (state: State) in state.pending[key]?.ticket == ticket }
        guard let disk = state.withLock({ isCurrent($0) ? $0.disk?.files : nil }) else { return }
        let temporary: URL?, size: Int
        if let bodyFile, bodyFile.bodyLength == response.data.count,
           URL(fileURLWithPath: bodyFile.path).deletingLastPathComponent().standardizedFileURL == disk.temporaryDirectory.standardizedFileURL,
           let path = bodyFile.claim() {
            let prefix = CacheEntryFile.prefix(bodyLength: bodyFile.bodyLength)
            let tail = CacheEntryFile.tail(key: key, response: response, bodyChecksum: bodyFile.bodyChecksum)
            size = prefix.count + bodyFile.bodyLength + tail.count
            let spooled = URL(fileURLWithPath: path)
            temporary = size <= disk.capacity && disk.finishTemporary(spooled, bodyLength: bodyFile.bodyLength, prefix: prefix, tail: tail)
                ? spooled : nil
            if temporary == nil { unlink(path) }
        } else {
            let parts = CacheEntryFile.parts(key: key, response: response)
            size = parts.reduce(0) { $0 + $1.count }
            temporary = size <= disk.capacity ? disk.writeTemporary(parts) : nil
        }
        state.withLock { state in
            guard isCurrent(state) else {
                if let temporary { unlink(temporary.path) }
                return
            }
            state.pending[key] = nil
            guard let temporary else { return }
            guard state.disk != nil else {
                unlink(temporary.path)
                return
            }
            _ = state.disk?.commit(temporary: temporary, as: DiskEntryStore.fileName(for: key), size: size)
        }
    }

    // MARK: Removing

    public override func removeCachedResponse(for request: URLRequest) {
        guard let key = CacheKey(request: request) else { return }
        removeCachedResponse(for: key)
    }

    /// Removes the entry for `key` from memory and disk.
    func removeCachedResponse(for key: CacheKey) {
        state.withLock { state in
            state.memory.removeValue(for: key)
            state.pending[key] = nil
            state.disk?.remove(DiskEntryStore.fileName(for: key))
        }
    }

    /// Removes every entry whose key `matches`, from memory and from disk
    /// (the disk tier is read key by key: a file's key is at its start).
    func removeCachedResponses(whereKey matches: @Sendable (CacheKey) -> Bool) {
        state.withLock { state in
            state.memory.removeAll(whereKey: matches)
            state.pending = state.pending.filter { !matches($0.key) }
        }
        guard let directory = state.withLock({ $0.disk?.directory }) else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix("." + DiskEntryStore.fileExtension) {
            guard let key = CacheEntryFile.storedKey(inFile: directory.appendingPathComponent(name).path), matches(key) else { continue }
            state.withLock { $0.disk?.remove(name) }
        }
    }

    public override func removeAllCachedResponses() {
        state.withLock { state in
            state.memory.removeAll()
            state.pending.removeAll()
            state.disk?.removeAll()
        }
    }

    /// Removes what was stored at or after `date`: memory entries by their store
    /// time, files by their modification time.
    public override func removeCachedResponses(since date: Date) {
        state.withLock { state in
            state.memory.removeAll { $0.stored >= date }
            state.pending = state.pending.filter { $0.value.entry.stored < date }
            guard let directory = state.disk?.directory else { return }
            let files = (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
            for file in files where file.pathExtension == DiskEntryStore.fileExtension {
                let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
                if let modified, modified >= date { state.disk?.remove(file.lastPathComponent) }
            }
        }
    }

    /// What an entry costs in memory: its body, its key, its header fields and
    /// user info (an answer can carry hundreds of kilobytes of fields and no
    /// body), and a fixed overhead for the objects that hold them.
    static func memoryCost(_ response: CachedURLResponse, _ key: CacheKey) -> Int {
        var cost = 256 + response.data.count + key.rawValue.utf8.count + (response.response.url?.absoluteString.utf8.count ?? 0)
        if let http = response.response as? HTTPURLResponse {
            for case let (name as String, value as String) in http.allHeaderFields { cost += name.utf8.count + value.utf8.count + 32 }
        }
        for case let (name as String, value as String) in response.userInfo ?? [:] { cost += name.utf8.count + value.utf8.count + 32 }
        return cost
    }
}

/// The former name of ``QueryKeyedURLCache``: it holds any response, not only images.
@available(*, deprecated, renamed: "QueryKeyedURLCache")
public typealias ImageURLCache = QueryKeyedURLCache
