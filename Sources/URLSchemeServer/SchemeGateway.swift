import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// Turns `/map?…`, `/asset?…`, `/avatar?…` and `/poll?…` into `map://?…`
/// (the same query, byte for byte) and loads it through a `URLSession`
/// set up with `installURLSchemeKit(environment)`: the URL Loading System
/// path an app's own session takes, with the environment's budgets,
/// caches, renderers and errors. Answers carry a strong `ETag` and
/// `Cache-Control: public, max-age=…`; failures carry the library's
/// one-line message and `Cache-Control: no-store`.
final class SchemeGateway: Sendable {
    /// The schemes served, each at `/<scheme>`.
    static let schemes = [MapURL.scheme, AssetURL.scheme, AvatarURL.scheme, PollURL.scheme]

    let environment: URLSchemeKitEnvironment
    private let session: URLSession
    private let maxAge: Int

    init(environment: URLSchemeKitEnvironment, maxAge: Int) {
        self.environment = environment
        self.maxAge = maxAge
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        session = URLSession(configuration: configuration)
    }

    /// The scheme URL a request for `scheme` with `query` names, or the 400 saying why there is none.
    static func url(scheme: String, query: Substring?) -> Result<URL, HTTPRequestError> {
        guard let url = URL(string: scheme + "://?" + (query ?? "")) else {
            return .failure(HTTPRequestError(400, "the query of /\(scheme) is not a valid URL query; percent-encode its reserved characters"))
        }
        return .success(url)
    }

    /// Loads `url` and answers `completion` with the HTTP answer to send, and
    /// the seconds the load took. `accept`: the client's `Accept` field, which
    /// `format=auto` is resolved for (its answers say `Vary: Accept`).
    func load(_ url: URL, accept: String? = nil, ifNoneMatch: String?, completion: @escaping @Sendable (HTTPResponse, Double) -> Void) {
        let start = DispatchTime.now()
        var request = URLRequest(url: url)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request) { [self] data, response, error in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            guard let data, let http = response as? HTTPURLResponse, error == nil else {
                completion(Self.answer(to: error ?? URLError(.unknown)), seconds)
                return
            }
            completion(answer(url: url, data: data, response: http, ifNoneMatch: ifNoneMatch), seconds)
        }
        task.resume()
    }

    private func answer(url: URL, data: Data, response: HTTPURLResponse, ifNoneMatch: String?) -> HTTPResponse {
        let tag = etag(url: url, body: data)
        var headers: [(name: String, value: String)] = [("ETag", tag), ("Cache-Control", "public, max-age=\(maxAge)")]
        // Only `format=auto` answers vary; their tag differs per variant, as their bodies do.
        if let vary = response.value(forHTTPHeaderField: "Vary") { headers.append(("Vary", vary)) }
        if let ifNoneMatch, Self.matches(ifNoneMatch, tag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.insert(("Content-Type", response.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream"), at: 0)
        if let warning = response.value(forHTTPHeaderField: "Warning") { headers.append(("Warning", warning)) }
        return HTTPResponse(status: 200, headers: headers, body: data)
    }

    /// A strong entity tag: the first 128 bits of SHA-256 over the canonical
    /// URL (query items sorted by name), the scheme's renderer version and
    /// the body, so two answers share a tag only when their bytes are the
    /// same, whatever changed in between (a renderer, a tile archive, a
    /// removed photo). Nothing local goes in (no folder, no cache partition):
    /// instances behind one proxy serving the same files agree on tags, so a
    /// revalidation that lands on another instance is still a `304`.
    func etag(url: URL, body: Data) -> String {
        let canonical = CacheKey(url: url)?.rawValue ?? url.absoluteString
        let version = Self.rendererVersion(of: url.scheme ?? "", in: environment) ?? ""
        var message = Array("\(canonical)\n\(version)\n".utf8)
        message.append(contentsOf: body)
        return "\"" + KeyedHash.hex(KeyedHash.sha256(message).prefix(16)) + "\""
    }

    private static func rendererVersion(of scheme: String, in environment: URLSchemeKitEnvironment) -> String? {
        switch scheme {
        case MapURL.scheme: environment.renderers.renderer(for: MapURL.self)?.version
        case AssetURL.scheme: environment.renderers.renderer(for: AssetURL.self)?.version
        case AvatarURL.scheme: environment.renderers.renderer(for: AvatarURL.self)?.version
        case PollURL.scheme: environment.renderers.renderer(for: PollURL.self)?.version
        default: nil
        }
    }

    /// Whether an `If-None-Match` value names `tag` (weak comparison, RFC 9110 §13.1.2), or is `*`.
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        let candidates = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return candidates.contains { $0 == "*" || $0 == tag || $0 == "W/" + tag }
    }

    /// The answer to a failed load: the library's message, a status that says
    /// what kind of failure it is, and never anything a cache keeps.
    static func answer(to error: Error) -> HTTPResponse {
        let urlError = error as? URLError
        let message = (error as NSError).localizedDescription
        switch urlError?.code {
        case .badURL?: return .error(400, message)
        case .fileDoesNotExist?, .unsupportedURL?: return .error(404, message)
        case .timedOut?: return .error(504, message)
        case .resourceUnavailable?:
            // A tile the origin would not give is the upstream's failure; anything else (a full render queue) passes.
            // On Linux the underlying error does not bridge back from NSError, so its message (MapTileError's own) tells too.
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? Error
            if underlying is MapTileError || message.hasPrefix("map tile ") { return .error(502, message) }
            return .error(503, message, extraHeaders: [("Retry-After", "1")])
        case .cancelled?: return .error(503, message, extraHeaders: [("Retry-After", "1")])
        default: return .error(500, message)
        }
    }
}
