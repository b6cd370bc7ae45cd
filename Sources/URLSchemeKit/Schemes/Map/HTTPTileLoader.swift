import Foundation
import MapRendering
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches tiles from an HTTP(S) URL template (`https://tiles.example/{z}/{x}/{y}.png`)
/// through a URLSession of its own: a User-Agent on every request (tile
/// servers refuse anonymous clients), and a `QueryKeyedURLCache` as the tile cache.
///
/// A tile server is a stranger too: a response is refused as soon as it says
/// or shows that it is larger than `maximumTileBytes`, and a
/// fetch gives up when its snapshot is cancelled or runs out of time.
///
/// It runs on the render queue's workers, never on URLSession's shared work
/// queue, so waiting for an inner request cannot deadlock the outer one.
public final class HTTPTileLoader: TileLoading {
    /// The tile URL, with `{z}`, `{x}` and `{y}` where the tile's coordinates go.
    public let template: String
    private let session: URLSession
    private let delegate = HTTPTileFetches()
    private let timeout: TimeInterval
    /// Bytes accepted from the server for one tile.
    public let maximumTileBytes: Int
    /// Statuses that mean "no tile here" (an empty body, `[]`) rather than an
    /// error: none for raster tiles; 204 and 404 for vector tile servers,
    /// which answer so for tiles with nothing in them.
    public let emptyStatuses: Set<Int>
    private let cachePolicy: URLRequest.CachePolicy

    /// - Parameters:
    ///   - template: the tile URL with `{z}`, `{x}` and `{y}`.
    ///   - userAgent: sent with every request; name your app and a contact.
    ///   - cache: where fetched tiles are kept (memory only by default).
    ///   - timeout: seconds one tile may take.
    ///   - maximumTileBytes: bytes accepted for one tile (1 MiB by default; a tile is tens of kilobytes).
    public init(template: String, userAgent: String, cache: QueryKeyedURLCache = QueryKeyedURLCache(memoryCapacity: 32 << 20, diskCapacity: 0),
                timeout: TimeInterval = 15, maximumTileBytes: Int = 1 << 20) {
        self.template = template
        self.timeout = timeout
        self.maximumTileBytes = maximumTileBytes
        emptyStatuses = []
        cachePolicy = .returnCacheDataElseLoad
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = cache
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// A loader fetching `template`'s tiles through a session made from
    /// `configuration`, with its protocol classes and cache: one with
    /// URLSchemeKit installed over an `HTTPCache` keeps each tile as the
    /// ordinary HTTP response it is, fresh for as long as the server says.
    /// - Parameters:
    ///   - template: the tile URL with `{z}`, `{x}` and `{y}`.
    ///   - configuration: the session's; a User-Agent is added when it sets none.
    ///   - timeout: seconds one tile may take.
    ///   - maximumTileBytes: bytes accepted for one tile.
    ///   - emptyStatuses: statuses answered for a tile with nothing in it (given as `[]`).
    public init(template: String, configuration: URLSessionConfiguration, timeout: TimeInterval = 15,
                maximumTileBytes: Int = 1 << 20, emptyStatuses: Set<Int> = []) {
        self.template = template
        self.timeout = timeout
        self.maximumTileBytes = maximumTileBytes
        self.emptyStatuses = emptyStatuses
        cachePolicy = .useProtocolCachePolicy
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.timeoutIntervalForRequest = timeout
        if configuration.httpAdditionalHeaders?["User-Agent"] == nil {
            configuration.httpAdditionalHeaders = (configuration.httpAdditionalHeaders ?? [:]).merging(["User-Agent": "URLSchemeKit"]) { $1 }
        }
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // Not here: the last reference may go on URLSession's work queue (an
        // environment released by a finished load), which invalidating waits on.
        let session = session
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }

    /// The bytes of one tile, from the cache or the server. Throws `MapTileError.unavailable` naming the tile and the reason (a load reports it as `URLError(.resourceUnavailable)`).
    public func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        try tile(coordinate, cancellation: RenderCancellation())
    }

    /// The tile, giving up when `cancellation` fires (it cancels the request,
    /// which ends the wait). Throws `MapTileError.unavailable` naming the tile
    /// and the reason: an HTTP error, a time-out, an oversized body, a cancellation.
    public func tile(_ coordinate: TileCoordinate, cancellation: RenderCancellation) throws -> [UInt8] {
        let text = coordinate.filling(template)
        guard let url = URL(string: text) else { throw MapTileError.unavailable(coordinate, "'\(text)' is not a URL") }
        let task = session.dataTask(with: URLRequest(url: url, cachePolicy: cachePolicy))
        let fetch = delegate.begin(task, coordinate: coordinate, limit: maximumTileBytes, emptyStatuses: emptyStatuses)
        // Not on the cancelling thread: that may be URLSession's own work
        // queue (stopLoading of the outer load), which task.cancel() waits on.
        cancellation.onCancel { DispatchQueue.global().async { task.cancel() } }
        task.resume()
        // One wait: the delegate signals when the task ends, and a
        // cancellation ends it by cancelling the task. The deadline is a
        // backstop for a server that trickles bytes under the idle time-out.
        let answered = cancellation.waitingForInput { fetch.done.wait(timeout: .now() + timeout + 1) } == .success
        if cancellation.isCancelled {
            throw MapTileError.unavailable(coordinate, "\(url.absoluteString): the snapshot was cancelled or ran out of time")
        }
        guard answered else {
            task.cancel()
            throw MapTileError.unavailable(coordinate, "\(url.absoluteString) did not answer within \(Int(timeout)) s")
        }
        return try fetch.result()
    }
}

/// The session delegate of an `HTTPTileLoader`: collects each tile's bytes,
/// cancelling a response that grows past its limit.
final class HTTPTileFetches: NSObject, URLSessionDataDelegate, Sendable {
    /// One tile being fetched.
    final class Fetch: Sendable {
        let coordinate: TileCoordinate
        let limit: Int
        let emptyStatuses: Set<Int>
        let done = DispatchSemaphore(value: 0)
        /// `empty`: the server answered one of `emptyStatuses`.
        let outcome = Mutex<(bytes: [UInt8], failure: MapTileError?, empty: Bool)>(([], nil, false))

        init(coordinate: TileCoordinate, limit: Int, emptyStatuses: Set<Int>) {
            self.coordinate = coordinate
            self.limit = limit
            self.emptyStatuses = emptyStatuses
        }

        func result() throws -> [UInt8] {
            try outcome.withLock { outcome in
                if outcome.empty { return [] }
                if let failure = outcome.failure { throw failure }
                return outcome.bytes
            }
        }

        func fail(_ reason: String) {
            outcome.withLock { if $0.failure == nil { $0.failure = .unavailable(coordinate, reason) } }
        }
    }

    private let fetches = Mutex<[Int: Fetch]>([:])

    func begin(_ task: URLSessionTask, coordinate: TileCoordinate, limit: Int, emptyStatuses: Set<Int> = []) -> Fetch {
        let fetch = Fetch(coordinate: coordinate, limit: limit, emptyStatuses: emptyStatuses)
        fetches.withLock { $0[task.taskIdentifier] = fetch }
        return fetch
    }

    private func fetch(_ task: URLSessionTask) -> Fetch? {
        fetches.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let fetch = fetch(dataTask) else { return completionHandler(.cancel) }
        let url = response.url?.absoluteString ?? "the tile server"
        if let status = (response as? HTTPURLResponse)?.statusCode, fetch.emptyStatuses.contains(status) {
            fetch.outcome.withLock { $0.empty = true }
            return completionHandler(.cancel)
        }
        if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
            fetch.fail("\(url) answered HTTP \(status)")
            return completionHandler(.cancel)
        }
        if response.expectedContentLength > Int64(fetch.limit) {
            fetch.fail("\(url) sends \(response.expectedContentLength) bytes; at most \(fetch.limit) are accepted (HTTPTileLoader.maximumTileBytes)")
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let fetch = fetch(dataTask) else { return }
        let tooLarge = fetch.outcome.withLock { outcome -> Bool in
            guard outcome.bytes.count + data.count <= fetch.limit else { return true }
            outcome.bytes.append(contentsOf: data)
            return false
        }
        if tooLarge {
            fetch.fail("\(dataTask.originalRequest?.url?.absoluteString ?? "the tile server") sent more than \(fetch.limit) bytes (HTTPTileLoader.maximumTileBytes)")
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let fetch = fetches.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            fetch.fail("\(task.originalRequest?.url?.absoluteString ?? "the tile server"): \(error.localizedDescription)")
        }
        fetch.done.signal()
    }
}
