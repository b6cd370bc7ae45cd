import Foundation
import MapRendering
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A PMTiles archive on an HTTP(S) server, read with Range requests: opening
/// it reads the first 16 KiB (the header and, as PMTiles writers lay it out,
/// the root directory); each later read asks for just its bytes. What was
/// read is kept (up to `cacheCapacity` bytes) so directories and tiles read
/// once are not asked for again; decoded tiles are kept above this by the
/// source's `VectorTileCache`. Given a `store`, each range read is also kept
/// there under the archive's URL, validator (`ETag`, else `Last-Modified`) and
/// size, so a later process (with a disk cache) asks only for the first 16
/// KiB, to learn whether the file is still the same. (`HTTPCache` keeps whole
/// answers, not ranges: hence a store of its own.)
///
/// A server is a stranger: a body longer than the range asked for is cut off
/// with an error, and one that ignores Range (a 200 with the whole file) is
/// read whole only when the file is at most `maximumWholeBytes` (then served
/// from memory); a larger one is refused, saying so, as the bytes arrive
/// (through an `HTTPCache` too, which is told each request's limit). Each
/// request may take `timeout` seconds. An `Authorization` or `Cookie` of the
/// configuration's `httpAdditionalHeaders` is sent with each request, and
/// never to another origin a redirect names. Reads block their thread (a
/// render queue's worker).
public final class HTTPRangeByteSource: PMTilesByteSource {
    /// The archive's URL.
    public let url: URL
    /// The archive's size, from the first answer's `Content-Range`.
    public let count: UInt64
    /// Seconds one request may take.
    public let timeout: TimeInterval
    /// The archive, when the server sent it whole.
    private let whole: [UInt8]?
    private let session: URLSession
    private let fetches = LimitedFetches(name: "HTTPRangeByteSource")
    /// Sent with each request (taken out of the configuration: see `LimitedFetches.takeCredentials`).
    private let credentials: [String: String]
    /// Whether requests go through an `HTTPCache` (which is then told each one's limit).
    private let configuration: URLSessionConfiguration
    private let kept: Mutex<KeptRanges>
    private let requests = Atomic<Int>(0)
    /// The first answer's `ETag`: a later answer with another means the file changed under us.
    private let entityTag: String?
    /// Where ranges are kept across sources and processes, and the key prefix
    /// naming this version of the file; nil when the server gives no validator.
    private let store: (cache: QueryKeyedURLCache, key: CacheKey)?

    /// Bytes asked for when the archive is opened.
    static let prefixLength: UInt64 = 16_384

    /// Opens the archive at `url`: one request for its first 16 KiB.
    /// - Parameters:
    ///   - url: the archive's `http(s)` URL.
    ///   - configuration: the session's (proxies, headers, protocol classes); its
    ///     `urlCache` is not used (a cache keeps whole answers, not ranges).
    ///   - timeout: seconds one request may take.
    ///   - maximumWholeBytes: the largest archive read whole from a server that ignores Range.
    ///   - cacheCapacity: bytes of ranges kept in memory.
    ///   - store: where ranges read are also kept (and looked for), e.g. the environment's `imageCache`.
    /// - Throws: `VectorTileError` (`truncated`) naming the URL and what the server answered.
    public init(url: URL, configuration: URLSessionConfiguration = .ephemeral, timeout: TimeInterval = 15,
                maximumWholeBytes: Int = 16 << 20, cacheCapacity: Int = 32 << 20, store: QueryKeyedURLCache? = nil) throws {
        self.url = url
        self.timeout = timeout
        kept = Mutex(KeptRanges(capacity: cacheCapacity))
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        if configuration.httpAdditionalHeaders?["User-Agent"] == nil {
            configuration.httpAdditionalHeaders = (configuration.httpAdditionalHeaders ?? [:]).merging(["User-Agent": "URLSchemeKit"]) { $1 }
        }
        credentials = LimitedFetches.takeCredentials(from: configuration)
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: fetches, delegateQueue: fetches.delegateQueue)
        let first = try Self.fetch(range: 0..<Self.prefixLength, wholeLimit: maximumWholeBytes,
                                   over: (url, session, fetches, credentials, configuration, timeout), requests: requests)
        entityTag = first.entityTag
        if let store, let validator = first.entityTag ?? first.lastModified, !first.isWhole, let key = CacheKey(url: url) {
            self.store = (store, key.variant("pmtiles-range&v=\(validator)&n=\(first.total)"))
        } else {
            self.store = nil
        }
        if first.isWhole {
            whole = first.bytes
            count = UInt64(first.bytes.count)
        } else {
            whole = nil
            count = first.total
            kept.withLock { $0.insert(first.bytes, at: 0) }
        }
    }

    deinit {
        // Not here: the last reference may go on URLSession's work queue (an
        // environment released by a finished load), which invalidating waits on.
        let session = session
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }

    /// Requests sent to the server so far.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    /// The bytes in `range`: from memory when kept, else with one Range request.
    public func bytes(in range: Range<UInt64>) throws -> [UInt8] {
        try bytes(in: range, cancellation: RenderCancellation())
    }

    /// The bytes in `range` (see `bytes(in:)`); when `cancellation` fires
    /// while the request is out, the request is cancelled and this throws
    /// what `cancellation.check()` throws (the deadline's time-out, or
    /// `CancellationError`).
    public func bytes(in range: Range<UInt64>, cancellation: RenderCancellation) throws -> [UInt8] {
        guard range.upperBound <= count else {
            throw VectorTileError(.truncated, "bytes \(range) lie past the end of \(url.absoluteString) (\(count) bytes)")
        }
        if let whole { return Array(whole[Int(range.lowerBound)..<Int(range.upperBound)]) }
        guard !range.isEmpty else { return [] }
        if let bytes = kept.withLock({ $0.bytes(in: range) }) { return bytes }
        let stored = store.map { ($0.cache, $0.key.variant("\(range.lowerBound)-\(range.upperBound)")) }
        if let (cache, key) = stored, let hit = cache.cachedResponse(for: key), hit.data.count == range.count {
            let bytes = [UInt8](hit.data)
            kept.withLock { $0.insert(bytes, at: range.lowerBound) }
            return bytes
        }
        let answer = try Self.fetch(range: range, wholeLimit: 0, over: (url, session, fetches, credentials, configuration, timeout),
                                    requests: requests, cancellation: cancellation)
        guard !answer.isWhole, answer.bytes.count == range.count else {
            throw VectorTileError(.truncated, "\(url.absoluteString) answered \(answer.bytes.count) bytes for the \(range.count) of bytes \(range)")
        }
        if let entityTag, let now = answer.entityTag, now != entityTag {
            throw VectorTileError(.corrupt, "\(url.absoluteString) changed while it was read (ETag \(entityTag), now \(now))")
        }
        kept.withLock { $0.insert(answer.bytes, at: range.lowerBound) }
        if let (cache, key) = stored, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                                                      headerFields: ["Content-Type": "application/octet-stream"]) {
            cache.store(CachedURLResponse(response: response, data: Data(answer.bytes), storagePolicy: .allowed), for: key)
        }
        return answer.bytes
    }

    /// One answer: the bytes, the file's size, whether the server sent the whole file.
    private struct Answer {
        var bytes: [UInt8]
        var total: UInt64
        var isWhole: Bool
        var entityTag: String?
        var lastModified: String?
    }

    /// The bytes in `range` from the server: a 206 of at most `range.count`
    /// bytes, or (`wholeLimit` above 0) a 200 of the whole file of at most
    /// `wholeLimit`; either refused as soon as it passes its limit.
    /// `link`: the source's fields a fetch uses (static, so the initialiser can fetch).
    private static func fetch(range: Range<UInt64>, wholeLimit: Int,
                              over link: (url: URL, session: URLSession, fetches: LimitedFetches, credentials: [String: String],
                                          configuration: URLSessionConfiguration, timeout: TimeInterval),
                              requests: borrowing Atomic<Int>, cancellation: RenderCancellation = RenderCancellation()) throws -> Answer {
        let (url, session, fetches, credentials, configuration, timeout) = link
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range")
        for (name, value) in credentials { request.setValue(value, forHTTPHeaderField: name) }
        let limit = Int(range.count)
        LimitedFetches.requestLimit(&request, HTTPForwarder.BodyLimit(bytes: limit, setting: "HTTPRangeByteSource: the bytes asked for, or maximumWholeBytes for a whole file",
                                                                      whole: wholeLimit), configuration: configuration)
        let task = session.dataTask(with: request)
        let fetch = fetches.begin(task) { response in
            switch response.statusCode {
            case 206:
                return .take(limit: limit, overflow: "the server sent more than the \(limit) bytes asked for")
            case 200:
                // The server ignored Range and sends the whole file.
                let length = response.expectedContentLength
                guard wholeLimit > 0, length <= Int64(wholeLimit) else {
                    let size = length >= 0 ? "\(length) bytes" : "a body of unstated size"
                    return .refuse("the server ignores Range requests (it answered 200 with the whole file, \(size), instead of 206)"
                                   + (wholeLimit > 0 ? "; archives over \(wholeLimit) bytes are read only from servers that support ranges" : ""))
                }
                return .take(limit: wholeLimit, overflow: "the server ignores Range requests and sent more than \(wholeLimit) bytes of the whole file")
            default:
                return .refuse("answered HTTP \(response.statusCode)")
            }
        }
        requests.add(1, ordering: .relaxed)
        // A cancelled render cancels the request, which ends the wait below;
        // never on the cancelling thread, which may be URLSession's own work queue.
        cancellation.onCancel { [fetches] in fetches.cancel(task) }
        task.resume()
        // While it waits, the render lends its queue slot (RenderCancellation.waitingForInput).
        let answered = cancellation.waitingForInput { fetch.wait(seconds: timeout + 1) }
        try cancellation.check()
        guard answered else {
            fetches.cancel(task)
            throw VectorTileError(.truncated, "\(url.absoluteString) did not answer bytes \(range) within \(Int(timeout)) s")
        }
        let outcome = fetch.outcome.withLock { $0 }
        if let failure = outcome.failure { throw VectorTileError(.truncated, "\(url.absoluteString): \(failure)") }
        guard let response = outcome.response else { throw VectorTileError(.truncated, "\(url.absoluteString) sent no answer") }
        let entityTag = response.value(forHTTPHeaderField: "ETag"), lastModified = response.value(forHTTPHeaderField: "Last-Modified")
        if response.statusCode == 200 {
            return Answer(bytes: outcome.bytes, total: UInt64(outcome.bytes.count), isWhole: true, entityTag: entityTag, lastModified: lastModified)
        }
        // Content-Range: bytes a-b/total
        guard let field = response.value(forHTTPHeaderField: "Content-Range"), let slash = field.lastIndex(of: "/"),
              let total = UInt64(field[field.index(after: slash)...].trimmingCharacters(in: CharacterSet.whitespaces)) else {
            throw VectorTileError(.truncated, "\(url.absoluteString) answered 206 without a Content-Range giving the file's size")
        }
        return Answer(bytes: outcome.bytes, total: total, isWhole: false, entityTag: entityTag, lastModified: lastModified)
    }
}
