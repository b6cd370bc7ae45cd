import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// Serves every URLSchemeKit scheme over HTTP/1.1, for browsers, other
/// languages and caches in front (nginx, a CDN):
///
/// | route | answer |
/// |---|---|
/// | `/map?…`, `/asset?…`, `/avatar?…`, `/poll?…` | the image `map://?…` (…) loads through a `URLSession` with `installURLSchemeKit(environment)` |
/// | `/tiles/NAME/{z}/{x}/{y}[@2x].png`, `/tiles/NAME.json` | raster tiles drawn from a tile source, and their TileJSON |
/// | `/data/NAME/{z}/{x}/{y}.pbf`, `/data/NAME.json`, `/styles/NAME/style.json` | vector tiles, their TileJSON and style, for MapLibre GL JS |
/// | `/styles/NAME/static/LON,LAT,ZOOM/WxH.png` | tileserver-gl's static map |
/// | `/health` | `200 ok`, or `503 draining` once ``drain(completion:)`` began |
/// | `/metrics` | Prometheus text: requests by route and status, load times, loads in progress, queue length |
///
/// Scheme loads run on at most ``ServerConfiguration/workers`` at once with
/// ``ServerConfiguration/queueLength`` more waiting; past that the answer is
/// `503` with `Retry-After`. Each answered request is one JSON line given to
/// `accessLog`.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// let server = SchemeServer(environment: .standard, configuration: configuration)
/// try server.start()
/// print("listening on \(server.port)")
/// server.drain { print("drained") }
/// ```
public final class SchemeServer: Sendable {
    /// The configuration it was made with.
    public let configuration: ServerConfiguration
    private let http: HTTPServer

    /// A server answering from `environment` (its asset store, tile sources,
    /// budget, caches and renderers), writing each access-log line to
    /// `accessLog` (nil: none). `styles` holds, by tile source name, the
    /// MapLibre style JSON a vector source draws with, served to browsers at
    /// `/styles/NAME/style.json`; a vector source without one serves the
    /// built-in style of its tiles' schema.
    public convenience init(environment: URLSchemeKitEnvironment, configuration: ServerConfiguration = ServerConfiguration(),
                            styles: [String: Data] = [:], accessLog: (@Sendable (String) -> Void)? = nil) {
        self.init(environment: environment, configuration: configuration, styles: styles, transport: .platformDefault, accessLog: accessLog)
    }

    /// The same, on the given transport (the tests run the Dispatch one on Linux too).
    init(environment: URLSchemeKitEnvironment, configuration: ServerConfiguration, styles: [String: Data], transport: HTTPServer.Transport,
         accessLog: (@Sendable (String) -> Void)?) {
        self.configuration = configuration
        let routes = SchemeRoutes(environment: environment, configuration: configuration, styles: styles, accessLog: accessLog)
        http = HTTPServer(configuration: configuration, transport: transport, handler: routes.respond, answered: routes.record)
    }

    /// Binds and listens. Throws ``ServerError`` when the address cannot be used.
    public func start() throws {
        try http.start()
    }

    /// The port listened on (the one the system picked for port 0).
    public var port: UInt16 { http.port }

    /// Stops accepting connections, answers `/health` with 503, closes idle
    /// connections and lets requests in progress finish, then calls
    /// `completion` (at the latest after ``ServerConfiguration/drainTimeout``).
    public func drain(completion: @escaping @Sendable () -> Void) {
        http.drain(timeout: configuration.drainTimeout, completion: completion)
    }
}
