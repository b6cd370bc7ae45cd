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
/// or shows that it is larger than `maximumTileBytes` (bytes as they arrive,
/// after any `Content-Encoding` is decoded: a gzip bomb ends at the limit),
/// through an `HTTPCache` too, which is told the limit; and a fetch gives up
/// when its snapshot is cancelled or runs out of time. An `Authorization` or
/// `Cookie` of the configuration's `httpAdditionalHeaders` is sent with each
/// request, and never to another origin a redirect names.
///
/// It runs on the render queue's workers, never on URLSession's shared work
/// queue, so waiting for an inner request cannot deadlock the outer one.
public final class HTTPTileLoader: TileLoading {
    /// The tile URL, with `{z}`, `{x}` and `{y}` where the tile's coordinates go.
    public let template: String
    private let session: URLSession
    private let delegate = LimitedFetches(name: "HTTPTileLoader")
    /// Sent with each request (taken out of the configuration: see `LimitedFetches.takeCredentials`).
    private let credentials: [String: String]
    /// The session's configuration (whether it loads through an `HTTPCache`).
    private let configuration: URLSessionConfiguration
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
        credentials = [:]
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegate.delegateQueue)
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
        credentials = LimitedFetches.takeCredentials(from: configuration)
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegate.delegateQueue)
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
        var request = URLRequest(url: url, cachePolicy: cachePolicy)
        for (name, value) in credentials { request.setValue(value, forHTTPHeaderField: name) }
        LimitedFetches.requestLimit(&request, HTTPForwarder.BodyLimit(bytes: maximumTileBytes, setting: "HTTPTileLoader.maximumTileBytes"),
                                    configuration: configuration)
        let task = session.dataTask(with: request)
        let fetch = delegate.begin(task) { [maximumTileBytes, emptyStatuses] response in
            let where_ = response.url?.absoluteString ?? url.absoluteString
            if emptyStatuses.contains(response.statusCode) { return .empty }
            if response.statusCode != 200 { return .refuse("\(where_) answered HTTP \(response.statusCode)") }
            if response.expectedContentLength > Int64(maximumTileBytes) {
                return .refuse("\(where_) sends \(response.expectedContentLength) bytes; at most \(maximumTileBytes) are accepted (HTTPTileLoader.maximumTileBytes)")
            }
            return .take(limit: maximumTileBytes, overflow: "\(where_) sent more than \(maximumTileBytes) bytes (HTTPTileLoader.maximumTileBytes)")
        }
        // Never on the cancelling thread, which may be URLSession's own work queue (stopLoading of the outer load).
        cancellation.onCancel { [delegate] in delegate.cancel(task) }
        task.resume()
        // One wait: the delegate signals when the task ends or passes its
        // limit, and a cancellation ends it by cancelling the task. The deadline
        // is a backstop for a server that trickles bytes under the idle time-out.
        // While it waits, the render lends its queue slot (RenderCancellation.waitingForInput).
        let answered = cancellation.waitingForInput { fetch.wait(seconds: timeout + 1) }
        if cancellation.isCancelled {
            throw MapTileError.unavailable(coordinate, "\(url.absoluteString): the snapshot was cancelled or ran out of time")
        }
        guard answered else {
            delegate.cancel(task)
            throw MapTileError.unavailable(coordinate, "\(url.absoluteString) did not answer within \(Int(timeout)) s")
        }
        return try fetch.outcome.withLock { outcome in
            if outcome.empty { return [] }
            if let failure = outcome.failure {
                throw MapTileError.unavailable(coordinate, failure.hasPrefix(url.absoluteString) ? failure : "\(url.absoluteString): \(failure)")
            }
            return outcome.bytes
        }
    }
}
