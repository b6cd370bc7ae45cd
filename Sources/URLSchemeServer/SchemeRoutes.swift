import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// What ``SchemeServer`` answers on each path, and how each answer is
/// counted and logged: the scheme routes through ``SchemeGateway`` and the
/// ``WorkQueue``, the map-server routes through ``TileRoutes``, `/health` and `/metrics`.
final class SchemeRoutes: Sendable {
    private let configuration: ServerConfiguration
    private let gateway: SchemeGateway
    private let work: WorkQueue
    private let metrics: ServerMetrics
    private let accessLog: (@Sendable (String) -> Void)?
    private let tiles: TileRoutes
    private let environment: URLSchemeKitEnvironment
    private let answers: AnswerCache

    init(environment: URLSchemeKitEnvironment, configuration: ServerConfiguration, styles: [String: Data], accessLog: (@Sendable (String) -> Void)?) {
        self.configuration = configuration
        self.environment = environment
        let gateway = SchemeGateway(environment: environment, maxAge: configuration.maxAge)
        let work = WorkQueue(workers: configuration.workers, capacity: configuration.queueLength)
        let metrics = ServerMetrics()
        // --no-cache (no image cache) means every request renders: the answer cache is off too.
        let answers = AnswerCache(capacity: environment.imageCache == nil ? 0 : configuration.answerCacheBytes)
        self.answers = answers
        self.metrics = metrics
        self.gateway = gateway
        self.work = work
        self.accessLog = accessLog
        tiles = TileRoutes(environment: environment, styles: styles, maxAge: configuration.maxAge, work: work) { url, request, cancellation, completion in
            Self.load(url, request, cancellation, gateway: gateway, work: work, metrics: metrics, answers: answers, retryAfter: configuration.retryAfter, completion)
        }
    }

    /// The first path segments of the routes: any other first segment followed by more path is a signature.
    private static let routeSegments: Set<Substring> = TileRoutes.prefixes.union(SchemeGateway.schemes.map { Substring($0) } + ["", "health", "metrics", "leaflet"])

    /// Answers `request`, which `http` received: checks its signature (``URLSigning``)
    /// and routes the target without it. A load queued for it is dropped when `cancellation` fires first.
    func respond(_ http: HTTPServer, _ request: HTTPRequest, _ cancellation: RequestCancellation, _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let completion = allowingOrigin(completion)
        guard let (signature, unsigned) = Self.splitSignature(request) else {
            if configuration.signing != nil, Self.needsSignature(request) {
                return completion(.error(403, "\(request.path.prefix(200)) needs a signed URL (/SIGNATURE\(request.path.prefix(200))?…): this server has a signing key"))
            }
            return route(http, request, cancellation, completion)
        }
        guard let signing = configuration.signing else { return route(http, unsigned, cancellation, completion) }  // imgproxy's way: any signature while no key is set
        guard signing.verifies(signature, target: unsigned.target) else {
            return completion(.error(403, "the URL's signature \(signature.prefix(100)) does not match its path under any signing key"))
        }
        route(http, unsigned, cancellation) { response in
            var response = response
            if let index = response.headers.firstIndex(where: { $0.name == "Cache-Control" }), response.headers[index].value.hasPrefix("public") {
                response.headers[index].value += ", immutable"  // a signed URL names its answer for good: the key's holder changes the URL, not the bytes
            }
            completion(response)
        }
    }

    /// `completion` with ``ServerConfiguration/allowedOrigin`` added to each answer.
    private func allowingOrigin(_ completion: @escaping @Sendable (HTTPResponse) -> Void) -> @Sendable (HTTPResponse) -> Void {
        guard let origin = configuration.allowedOrigin else { return completion }
        return { response in
            var response = response
            response.headers.append(("Access-Control-Allow-Origin", origin))
            completion(response)
        }
    }

    /// The signature and the request without it, when `request` is `/SIGNATURE/route…`
    /// (SIGNATURE: up to 128 base64url characters, not a route's name).
    private static func splitSignature(_ request: HTTPRequest) -> (Substring, HTTPRequest)? {
        let first = firstSegment(of: request)
        guard !routeSegments.contains(first), first.count <= 128, request.path.dropFirst(first.count + 1).hasPrefix("/"),
              first.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }  // base64url's alphabet (imgproxy's `insecure` too); `..` and the like stay unknown routes
        var unsigned = request
        unsigned.target = String(request.target.dropFirst(first.count + 1))
        return (first, unsigned)
    }

    /// Whether `request`'s route answers only signed URLs when a key is set:
    /// the scheme routes and static maps, whose parameters are the caller's to choose.
    private static func needsSignature(_ request: HTTPRequest) -> Bool {
        SchemeGateway.schemes.contains(String(request.path.dropFirst()))
            || (firstSegment(of: request) == "styles" && request.path.split(separator: "/").dropFirst(2).first == "static")
    }

    /// Answers `request`, its signature checked and removed.
    private func route(_ http: HTTPServer, _ request: HTTPRequest, _ cancellation: RequestCancellation, _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        // A target answered from the answer cache before: no route, URL or key to make.
        if answers.admits(request), let hit = answers.answer(forTarget: request.target, ifNoneMatch: request.header("If-None-Match")) {
            return completion(hit)
        }
        let path = String(request.path)
        switch path {
        case "/health":
            completion(http.isDraining
                ? .error(503, "draining", extraHeaders: [("Retry-After", String(configuration.retryAfter))])
                : HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: Data("ok\n".utf8)))
        case "/metrics":
            let text = metrics.text(inFlight: work.runningCount, queued: work.waitingCount, cancelled: work.cancelledCount,
                                    connections: http.connectionCount, draining: http.isDraining,
                                    answers: answers.usage)
            completion(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                                    body: Data(text.utf8)))
        case "/":
            let hasLeaflet = configuration.leafletDirectory.map { FileManager.default.fileExists(atPath: $0 + "/leaflet.js") } ?? false
            completion(HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                                    body: Data(ViewerPage.html(names: environment.tileSources.names, hasLeaflet: hasLeaflet).utf8)))
        case _ where path.hasPrefix("/leaflet/"):
            let file = String(path.dropFirst("/leaflet/".count))
            guard let directory = configuration.leafletDirectory, ViewerPage.leafletFiles.contains(file) else {
                return completion(.error(404, "no Leaflet file \(path.prefix(200)) (--leaflet DIR serves \(ViewerPage.leafletFiles.sorted().joined(separator: ", ")))"))
            }
            do {
                let data = try TileRoutes.readFile(directory + "/" + file, limit: 4 << 20, what: "Leaflet")
                let type = file.hasSuffix(".js") ? "text/javascript" : file.hasSuffix(".css") ? "text/css" : "image/png"
                completion(HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=\(configuration.maxAge)")], body: data))
            } catch let error as HTTPRequestError {
                completion(.error(error.status, error.message))
            } catch {
                completion(.error(500, "\(error)"))
            }
        case _ where TileRoutes.prefixes.contains(Self.firstSegment(of: request)):
            let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            tiles.respond(Array(segments), request, cancellation, base: PublicBaseURL(configuration: configuration, port: http.port), completion)
        default:
            let scheme = String(path.dropFirst())
            guard path.hasPrefix("/"), SchemeGateway.schemes.contains(scheme) else {
                return completion(.error(404, "no route \(path.prefix(200)); the routes are /map, /asset, /avatar, /poll, /tiles, /data, /styles, /fonts, /health and /metrics"))
            }
            let url: URL
            switch SchemeGateway.url(scheme: scheme, query: request.query) {
            case .success(let value): url = value
            case .failure(let error): return completion(.error(error.status, error.message))
            }
            Self.load(url, request, cancellation, gateway: gateway, work: work, metrics: metrics, answers: answers, retryAfter: configuration.retryAfter, completion)
        }
    }

    /// Answers the scheme URL `url` for `request` from the answer cache, else
    /// loads it on the work queue through the gateway (keeping a public
    /// answer), or answers 503 at once when the queue is full. A load still
    /// waiting when `cancellation` fires (the client left) never runs.
    private static func load(_ url: URL, _ request: HTTPRequest, _ cancellation: RequestCancellation, gateway: SchemeGateway, work: WorkQueue, metrics: ServerMetrics, answers: AnswerCache,
                             retryAfter: Int, _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let ifNoneMatch = request.header("If-None-Match"), accept = request.header("Accept")
        let key = answers.admits(request) ? CacheKey(url: url)?.rawValue : nil
        if let key, let hit = answers.answer(for: key, target: request.target, ifNoneMatch: ifNoneMatch) { return completion(hit) }
        let accepted = work.submit(cancellation: cancellation) { done in
            // Without If-None-Match, so that the full answer (not a 304) is what gets kept.
            gateway.load(url, accept: accept, ifNoneMatch: key == nil ? ifNoneMatch : nil) { response, seconds in
                metrics.observeLoad(seconds: seconds)
                done()
                guard let key else { return completion(response) }
                answers.store(response, for: key, target: request.target)
                completion(AnswerCache.validated(response, ifNoneMatch: ifNoneMatch))
            }
        }
        if !accepted {
            completion(.error(503, "the server is busy: \(work.workers) loads running and \(work.capacity) waiting (--workers, --queue); try again",
                              extraHeaders: [("Retry-After", String(retryAfter))]))
        }
    }

    /// The routes whose label is their path's name.
    private static let namedRoutes = Set(SchemeGateway.schemes + ["health", "metrics", "leaflet"])

    /// The metrics' route label of `request`: a known route's name, else `other` (never the raw path: a label per path is unbounded).
    private static func route(of request: HTTPRequest?) -> String {
        guard var request else { return "refused" }
        if let (_, unsigned) = splitSignature(request) { request = unsigned }
        let name = String(request.path.dropFirst())
        if namedRoutes.contains(name) { return name }
        if name.isEmpty { return "viewer" }
        let first = firstSegment(of: request)
        return TileRoutes.prefixes.contains(first) || first == "leaflet" ? String(first) : "other"
    }

    /// `tiles` of `/tiles/…`.
    private static func firstSegment(of request: HTTPRequest) -> Substring {
        request.path.dropFirst().prefix { $0 != "/" }
    }

    /// Counts and logs one written answer.
    func record(_ request: HTTPRequest?, _ response: HTTPResponse, peer: String, started: DispatchTime) {
        let route = Self.route(of: request)
        metrics.countRequest(route: route, status: response.status)
        guard let accessLog else { return }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        let entry = AccessLogEntry(time: AccessLogEntry.timestamp(),
                                   peer: peer, method: request?.method ?? "-", target: String((request?.target ?? "-").prefix(AccessLogEntry.targetLimit)),
                                   route: route, status: response.status, bytes: request?.method == "HEAD" ? 0 : response.body.count,
                                   ms: (milliseconds * 10).rounded() / 10)
        accessLog(entry.line)
    }
}
