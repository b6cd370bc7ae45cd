import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared core of every URLSchemeKit scheme (`map://`, `asset://`, …):
/// a subclass names its schemes and turns a request into render work; this
/// class does the rest, safely on Linux.
///
/// ```swift
/// final class PatternURLProtocol: SchemeURLProtocol {
///     override class var schemes: Set<String> { ["pattern"] }
///     override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
///         try environment.work(for: PatternURL(url: requestURL))
///     }
/// }
/// ```
///
/// Threads: `canInit` runs on the thread that resumed the task; `startLoading`
/// and `stopLoading` run on the task's serial work queue. Per request:
/// 1. find the session's ``URLSchemeKitEnvironment`` (see `installURLSchemeKit(_:)`);
/// 2. `makeRenderWork(in:)` parses the URL (strictly; errors name the
///    parameter) and picks the environment's renderer;
/// 3. honour `request.cachePolicy` (the Linux session never does): an answer
///    stored for the same `CacheKey`, environment partition and renderer
///    version answers without rendering, unless the policy is a reload
///    (from memory at once; from disk on the render queue);
///    `.returnCacheDataDontLoad` without one fails with
///    `URLError(.resourceUnavailable)`;
/// 4. the render runs on the environment's `renderQueue`, cancellable through
///    `RenderCancellation`, which also fires when the render outlives
///    ``ResourceBudget/renderDeadline`` (reported as `URLError(.timedOut)`); a
///    full queue refuses it at once;
/// 5. a success is stored in the environment's ``QueryKeyedURLCache``, then answered
///    as `HTTPURLResponse` 200 with `Content-Type` and `Content-Length` (and
///    `Warning`, for a ``RenderedImage/warnings``); a failure as a `URLError`;
/// 6. the client hears one outcome, on the task's work queue, never after
///    `stopLoading()` (see `ClientChannel`): answers known inside
///    `startLoading()` (memory hits, parse errors) are reported there and
///    then, on the queue it runs on; render results hop back to that queue.
open class SchemeURLProtocol: URLProtocol {
    /// The schemes this class answers, lower-case. Subclasses override.
    open class var schemes: Set<String> { [] }

    /// Parses the request into the work that renders it, with a renderer of
    /// `environment` (`environment.work(for:)`). Called on the session's
    /// shared work queue, so it must only parse: no I/O, no drawing, no limit
    /// checks (those belong to the render, which sees the budget).
    /// Throw `URLParameterError` (reported as `.badURL`) or a `URLError`.
    open func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        throw URLErrors.make(.unsupportedURL, "\(Self.self) renders nothing: override makeRenderWork(in:)", url: request.url)
    }

    /// The request's URL (a request without one never reaches `makeRenderWork`),
    /// with `format=auto` resolved for the request's `Accept` field.
    public var requestURL: URL { resolvedURL.withLock { $0 } ?? request.url ?? URL(fileURLWithPath: "/") }

    /// The request's URL with `format=auto` resolved, set in `startLoading()` before `makeRenderWork`.
    private let resolvedURL = Mutex<URL?>(nil)

    private let loadingState = LoadingState()

    open override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return schemes.contains(scheme)
    }

    open override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    public final override func startLoading() {
        guard let client, let cancellation = loadingState.start() else { return }
        // Until the render is handed off we are on the task's work queue, so
        // answers decided here are delivered directly.
        let channel = ClientChannel(urlProtocol: self, client: client, state: loadingState)
        let request = self.request
        guard let asked = request.url else {
            channel.deliver(.failed(URLErrors.make(.badURL, "the request has no URL", url: nil)))
            return
        }
        let (workQueue, session) = ClientChannel.internals(of: task)
        let environment = EnvironmentURLCache.environment(of: session)
        // `format=auto` is resolved first: each variant is its own URL, so its
        // own cache entry, and the answer is addressed back to the URL asked.
        let negotiated = FormatNegotiation.resolve(asked, accept: request.value(forHTTPHeaderField: "Accept"),
                                                   prefersWebP: environment.autoFormatPrefersWebP)
        let url = negotiated ?? asked
        resolvedURL.withLock { $0 = negotiated }
        let answer: @Sendable (URLResponse, Data) -> ClientChannel.Outcome = { response, data in
            guard negotiated != nil else { return .loaded(response, data) }
            return .loaded(Self.response(for: asked, answering: CachedURLResponse(response: response, data: data), vary: "Accept"), data)
        }
        guard let urlKey = CacheKey(url: url) else {
            channel.deliver(.failed(URLErrors.make(.badURL, "\(asked.absoluteString) cannot be read as a URL with a scheme", url: asked)))
            return
        }
        let cache = QueryKeyedURLCache.readsCache(request.cachePolicy) ? environment.imageCache : nil
        // A memory hit is answered before the URL is parsed: the renderer's
        // version for this class and scheme is remembered from an earlier load
        // (an environment's renderers never change).
        let versionKey = "\(Self.self) \(urlKey.rawValue.prefix { $0 != ":" })"
        let knownVersion = environment.renderVersions.withLock { $0[versionKey] }
        if let knownVersion, let hit = cache?.memoryCachedResponse(for: Self.answerKey(urlKey, partition: environment.cachePartition, version: knownVersion)) {
            channel.deliver(answer(Self.response(for: url, answering: hit), hit.data))
            return
        }
        let work: RenderWork
        do {
            work = try makeRenderWork(in: environment)
        } catch {
            channel.deliver(.failed(URLErrors.converting(error, url: url)))
            return
        }
        let key = Self.answerKey(urlKey, partition: environment.cachePartition, version: work.version)
        if knownVersion != work.version {
            environment.renderVersions.withLock { $0[versionKey] = work.version }
            if let hit = cache?.memoryCachedResponse(for: key) {
                channel.deliver(answer(Self.response(for: url, answering: hit), hit.data))
                return
            }
        }
        let offline = request.cachePolicy == .returnCacheDataDontLoad
        if offline && cache?.directory == nil {
            channel.deliver(.failed(Self.notCached(url)))
            return
        }
        let deadline = environment.budget.renderDeadline
        let context = RenderContext(environment: environment, cancellation: cancellation)
        do {
            try environment.renderQueue.submit(cancellation: cancellation, pendingLimit: environment.budget.pendingRenders) {
                // A disk hit is read here, off the work queue every session shares.
                if let hit = cache?.cachedResponse(for: key) {
                    channel.deliver(answer(Self.response(for: url, answering: hit), hit.data), on: workQueue)
                    return
                }
                if offline {
                    channel.deliver(.failed(Self.notCached(url)), on: workQueue)
                    return
                }
                // The deadline counts from here: time spent waiting for a slot is the queue's, not the render's.
                let timer = DispatchWorkItem { cancellation.expire(deadline: deadline) }
                Self.deadlineQueue.asyncAfter(deadline: .now() + deadline, execute: timer)
                defer { timer.cancel() }
                do {
                    try cancellation.check()
                    let image = try work(context)
                    try cancellation.check()
                    let response = Self.response(for: url, mimeType: image.mimeType, length: image.data.count, warning: image.warningHeader)
                    environment.imageCache?.store(CachedURLResponse(response: response, data: image.data, storagePolicy: .allowed), for: key)
                    channel.deliver(answer(response, image.data), on: workQueue)
                } catch {
                    channel.deliver(.failed(URLErrors.converting(error, url: url)), on: workQueue)
                }
            }
        } catch {
            channel.deliver(.failed(URLErrors.converting(error, url: url)))
        }
    }

    /// Where render deadlines fire: a serial queue of its own, which libdispatch
    /// gives a thread of its own when it needs one. On the global queue, whose
    /// threads are as many as the cores, a deadline waited behind tile
    /// fetches blocked on a slow server: 0.5 s fired after 2.2–2.7 s on two cores.
    private static let deadlineQueue = DispatchQueue(label: "URLSchemeKit.SchemeURLProtocol.deadline")

    public final override func stopLoading() {
        loadingState.stop()
    }

    /// The key a rendered answer is stored under: the URL's key (its query in
    /// canonical order), the environment's partition and the renderer's
    /// version, so one tenant never sees another's answer and an upgraded
    /// renderer never serves an old picture.
    static func answerKey(_ urlKey: CacheKey, partition: String, version: String) -> CacheKey {
        urlKey.variant("p=" + partition + "&v=" + version)
    }

    private static func notCached(_ url: URL) -> URLError {
        URLErrors.make(.resourceUnavailable, "no cached response for \(url.absoluteString), and the cache policy forbids loading", url: url)
    }

    /// The 200 response for a rendered body, with its `Warning` header if any.
    static func response(for url: URL, mimeType: String, length: Int, warning: String? = nil, vary: String? = nil) -> URLResponse {
        var headers = ["Content-Type": mimeType, "Content-Length": String(length)]
        if let warning { headers["Warning"] = warning }
        if let vary { headers["Vary"] = vary }
        // HTTPURLResponse's initialiser fails only for a malformed HTTP version;
        // "HTTP/1.1" is well formed, so the fallback exists only to stay total.
        return HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
            ?? URLResponse(url: url, mimeType: mimeType, expectedContentLength: length, textEncodingName: nil)
    }

    /// A cached answer re-addressed to the URL that asked (which may order its
    /// query differently, or ask `format=auto`: then `vary` is its `Vary`).
    static func response(for url: URL, answering cached: CachedURLResponse, vary: String? = nil) -> URLResponse {
        if cached.response.url == url && vary == nil { return cached.response }
        let http = cached.response as? HTTPURLResponse
        let mimeType = http?.value(forHTTPHeaderField: "Content-Type") ?? cached.response.mimeType ?? "application/octet-stream"
        return response(for: url, mimeType: mimeType, length: cached.data.count, warning: http?.value(forHTTPHeaderField: "Warning"),
                        vary: vary)
    }
}
