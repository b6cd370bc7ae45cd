import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Caches every `http` and `https` load of a session by the HTTP rules and
/// answers from the store when the origin cannot be reached: pages and photos
/// seen once keep working offline. `installURLSchemeKit()` registers it with
/// the environment's `httpCache` (``HTTPCache/standard`` by default; an
/// environment without one leaves `http(s)` to the platform). Alone:
/// `configuration.protocolClasses = [HTTPCacheURLProtocol.self]` (then it uses
/// ``HTTPCache/standard``).
///
/// Every answer carries a `Cache-Status` header (RFC 9211) saying what happened,
/// e.g. `URLSchemeKit; hit; ttl=3597`, `URLSchemeKit; fwd=stale; fwd-status=304`
/// or `URLSchemeKit; fwd=stale; detail=offline`. `URLRequest.cachePolicy` is
/// honoured here (the Linux session never does): `.useProtocolCachePolicy`
/// follows the HTTP rules, `.returnCacheDataElseLoad` takes any stored
/// response, `.returnCacheDataDontLoad` only the store (else
/// `URLError(.resourceUnavailable)`), the reloads go to the origin and store
/// what it answers.
///
/// Threads: `startLoading()` runs on the task's work queue, the one queue all
/// sessions share, so it answers only a fresh hit held in memory there; disk
/// reads and forwarding run on ``HTTPCache``'s queue and the inner session's, and
/// the outcome hops back to the work queue (`ClientChannel`), once, never after
/// `stopLoading()`, which cancels the forwarded request.
public final class HTTPCacheURLProtocol: URLProtocol {
    private let loadingState = LoadingState()
    private static let loadQueue = DispatchQueue(label: "URLSchemeKit.HTTPCacheURLProtocol", qos: .userInitiated, attributes: .concurrent)

    public override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    public override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    public override func startLoading() {
        guard let client, let cancellation = loadingState.start() else { return }
        let channel = ClientChannel(urlProtocol: self, client: client, state: loadingState)
        let (workQueue, session) = ClientChannel.internals(of: task)
        let configuration = session?.configuration
        guard let load = HTTPCacheLoad(cache: EnvironmentURLCache.environment(in: configuration)?.httpCache ?? .standard,
                                       request: Self.outgoing(request, configuration), cookies: SessionCookies(configuration),
                                       cancellation: cancellation, timeLimit: configuration?.timeoutIntervalForResource,
                                       bodyLimit: HTTPForwarder.BodyLimit(field: request.value(forHTTPHeaderField: HTTPForwarder.bodyLimitField)),
                                       lane: session.map { (ObjectIdentifier($0), $0.configuration.httpMaximumConnectionsPerHost) },
                                       finish: { outcome in channel.deliver(Self.deliverable(outcome), on: workQueue) })
        else {
            channel.deliver(.failed(URLErrors.make(.badURL, "the request has no URL", url: nil)))
            return
        }
        // A fresh hit in memory is answered here and now, on this queue (no hop).
        if let hit = load.answerFromMemory() {
            channel.deliver(Self.deliverable(hit))
            return
        }
        Self.loadQueue.async { load.run() }
    }

    public override func stopLoading() {
        loadingState.stop()
    }

    /// `outcome`, or the error a challenge becomes. Given a `401` with a
    /// `WWW-Authenticate` challenge, Linux's session starts authenticating by
    /// itself: for Basic or Digest without a credential it never completes the
    /// load, and the time-out never fires (trap 16); for a scheme it does not
    /// know, a delegate that offers a credential makes it crash. So on Linux the
    /// `401` is reported as `URLError(.userAuthenticationRequired)` naming the
    /// challenge; send an `Authorization` header to get past it.
    package static func deliverable(_ outcome: ClientChannel.Outcome) -> ClientChannel.Outcome {
        #if canImport(FoundationNetworking)
        guard case let .loaded(response, _) = outcome, let http = response as? HTTPURLResponse, http.statusCode == 401,
              let challenge = http.value(forHTTPHeaderField: "WWW-Authenticate"), !challenge.isEmpty else { return outcome }
        return .failed(URLErrors.converting(AuthenticationChallengeError(url: http.url, challenge: challenge), url: http.url))
        #else
        return outcome
        #endif
    }

    /// The request as the origin should see it: the session's additional
    /// headers added where the request has none of its own (the inner session
    /// has its own configuration), the body limit meant for the cache removed.
    package static func outgoing(_ request: URLRequest, _ configuration: URLSessionConfiguration?) -> URLRequest {
        var outgoing = request
        outgoing.setValue(nil, forHTTPHeaderField: HTTPForwarder.bodyLimitField)
        for case let (name as String, value as String) in configuration?.httpAdditionalHeaders ?? [:]
        where outgoing.value(forHTTPHeaderField: name) == nil {
            outgoing.setValue(value, forHTTPHeaderField: name)
        }
        return outgoing
    }
}
