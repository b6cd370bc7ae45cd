import Foundation

/// How a ``SchemeServer`` listens, how much it takes on at once, and how
/// long it waits for clients. Every default is what `urlscheme serve` uses.
public struct ServerConfiguration: Sendable {
    /// The address to listen on, IPv4 or IPv6 (`127.0.0.1`, `0.0.0.0`, `::1`).
    public var bindAddress = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read it back from ``SchemeServer/port``).
    public var port: UInt16 = 8080
    /// Scheme loads in progress at once; past that they wait in the queue.
    public var workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Threads serving connections on Linux, each an `epoll` loop of its own
    /// owning its connections (reading, parsing, writing, timeouts); renders
    /// run on the ``workers`` apart. Other systems serve through Dispatch and ignore it.
    public var eventLoops = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Scheme loads that may wait for a worker; past that the answer is 503 with `Retry-After`.
    public var queueLength = 64
    /// Open connections at once; at the cap no new one is accepted (the
    /// kernel's listen backlog holds them) until one closes.
    public var maximumConnections = 512
    /// The time from a request's first byte to the end of its head; past it, 408 and close.
    public var headerTimeout: TimeInterval = 10
    /// How long a kept-alive connection may wait for its next request.
    public var idleTimeout: TimeInterval = 60
    /// How long an answer may wait for the client to read more of it.
    public var writeTimeout: TimeInterval = 30
    /// `Cache-Control: public, max-age=` of a scheme answer, in seconds.
    public var maxAge = 86_400
    /// The `Retry-After` of a 503 for a full queue, in seconds.
    public var retryAfter = 1
    /// How long a drain (SIGTERM) waits for requests in progress.
    public var drainTimeout: TimeInterval = 30
    /// The absolute URL browsers reach the server at (`https://maps.example/prefix`,
    /// no trailing `/`), which TileJSON and styles name tiles by; nil: told
    /// from each request's `Host` (and forwarded headers, when trusted).
    public var publicURL: String?
    /// Whether `X-Forwarded-Proto` and `X-Forwarded-Host` are believed (behind
    /// a proxy that sets them and strips clients' own); off by default, as any
    /// client can send them.
    public var trustsForwardedHeaders = false
    /// A folder holding Leaflet (`leaflet.js`, `leaflet.css`, `images/`), served
    /// at `/leaflet/…` for the map viewer at `/`; nil: the viewer says how to get it.
    public var leafletDirectory: String?
    /// The `Access-Control-Allow-Origin` of every answer (`*`, or one origin
    /// such as `https://app.example`), so that pages of other origins (a user's
    /// own MapLibre GL JS, Leaflet or OpenLayers page) may read the tiles,
    /// styles, glyphs and images with `fetch`; nil sends none. Answers stay
    /// readable without credentials only: no `Allow-Credentials` is ever sent.
    public var allowedOrigin: String? = "*"
    /// When set, `/map`, `/asset`, `/avatar`, `/poll` and static maps answer
    /// only URLs signed with one of its keys (`/SIGNATURE/map?…`, imgproxy's
    /// scheme), others `403`; signed answers are `Cache-Control: …, immutable`.
    public var signing: URLSigning?
    /// Body bytes of finished public scheme answers kept in memory and answered
    /// without a load (``AnswerCache``); 0 keeps none.
    public var answerCacheBytes = 64 << 20
    /// The bounds of a request head.
    public var limits = HTTPRequestParser.Limits()

    /// The defaults.
    public init() {}
}
