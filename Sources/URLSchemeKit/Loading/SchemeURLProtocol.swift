import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared core of every URLSchemeKit scheme (`map://`, `asset://`, …):
/// a subclass names its schemes and turns a request into render work; this
/// class does the rest, safely on Linux.
///
/// ```swift
/// final class PatternURLProtocol: SchemeURLProtocol {
///     static let renderer = RendererSlot<PatternURL>(PatternRenderer())
///     override class var schemes: Set<String> { ["pattern"] }
///     override func makeRenderWork() throws -> RenderWork {
///         try Self.renderer.work(for: PatternURL(url: requestURL))
///     }
/// }
/// ```
///
/// Threads: `canInit` runs on the thread that resumed the task; `startLoading`
/// and `stopLoading` run on the task's serial work queue. Per request:
/// 1. honour `request.cachePolicy` (the Linux session never does): a cached
///    response for the same `CacheKey` answers without rendering, unless the
///    policy is a reload; `.returnCacheDataDontLoad` without one fails with
///    `URLError(.resourceUnavailable)`;
/// 2. `makeRenderWork()` parses the URL (strictly; errors name the parameter);
/// 3. the render runs on `renderQueue`, cancellable through `RenderCancellation`,
///    which also fires when the render outlives `ResourceBudget.renderDeadline`
///    (reported as `URLError(.timedOut)`); a full queue refuses it at once;
/// 4. a success is stored in the session's `ImageURLCache` (the platform never
///    stores a custom protocol's response), then answered as `HTTPURLResponse`
///    200 with `Content-Type` and `Content-Length`; a failure as a `URLError`;
/// 5. the client hears one outcome, on the task's work queue, never after
///    `stopLoading()` (see `ClientChannel`): answers known inside
///    `startLoading()` (hits, parse errors) are reported there and then, on
///    the queue it runs on; render results hop back to that queue.
open class SchemeURLProtocol: URLProtocol {
    /// The schemes this class answers, lower-case. Subclasses override.
    open class var schemes: Set<String> { [] }

    /// Where renders run. Defaults to the process-wide `RenderQueue.shared`.
    open class var renderQueue: RenderQueue { .shared }

    /// Parses the request into the work that renders it. Called on the
    /// session's shared work queue, so it must only parse: no I/O, no drawing.
    /// Throw `URLParameterError` (reported as `.badURL`) or a `URLError`.
    open func makeRenderWork() throws -> RenderWork {
        throw URLErrors.make(.unsupportedURL, "\(Self.self) renders nothing: override makeRenderWork()", url: request.url)
    }

    /// The request's URL (a request without one never reaches `makeRenderWork`).
    public var requestURL: URL { request.url ?? URL(fileURLWithPath: "/") }

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
        guard let url = request.url else {
            channel.deliver(.failed(URLErrors.make(.badURL, "the request has no URL", url: nil)))
            return
        }
        // A hit for this very URL needs no key; a hit for another spelling must share its key.
        if ImageURLCache.readsCache(request.cachePolicy), let cached = cachedResponse,
           let cachedURL = cached.response.url, cachedURL == url || CacheKey(url: cachedURL) == CacheKey(url: url) {
            // The stored response serves its own URL as it is; another spelling gets one re-addressed.
            let response = cachedURL == url ? cached.response : Self.response(for: url, answering: cached)
            channel.deliver(.loaded(response, cached.data))
            return
        }
        guard let key = CacheKey(url: url) else {
            channel.deliver(.failed(URLErrors.make(.badURL, "\(url.absoluteString) cannot be read as a URL with a scheme", url: url)))
            return
        }
        if request.cachePolicy == .returnCacheDataDontLoad {
            let message = "no cached response for \(url.absoluteString), and the cache policy forbids loading"
            channel.deliver(.failed(URLErrors.make(.resourceUnavailable, message, url: url)))
            return
        }

        let work: RenderWork
        do {
            work = try makeRenderWork()
        } catch {
            channel.deliver(.failed(URLErrors.converting(error, url: url)))
            return
        }
        let (workQueue, session) = ClientChannel.internals(of: task)
        let cache = session?.configuration.urlCache as? ImageURLCache
        let deadline = ResourceBudget.current.renderDeadline
        do {
            try Self.renderQueue.submit(cancellation: cancellation) {
                // The deadline counts from here: time spent waiting for a slot is the queue's, not the render's.
                let timer = DispatchWorkItem { cancellation.expire(deadline: deadline) }
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer)
                defer { timer.cancel() }
                do {
                    try cancellation.check()
                    let image = try work(cancellation)
                    try cancellation.check()
                    let response = Self.response(for: url, mimeType: image.mimeType, length: image.data.count)
                    cache?.store(CachedURLResponse(response: response, data: image.data, storagePolicy: .allowed), for: key)
                    channel.deliver(.loaded(response, image.data), on: workQueue)
                } catch {
                    channel.deliver(.failed(URLErrors.converting(error, url: url)), on: workQueue)
                }
            }
        } catch {
            channel.deliver(.failed(URLErrors.converting(error, url: url)))
        }
    }

    public final override func stopLoading() {
        loadingState.stop()
    }

    /// The 200 response for a rendered body.
    static func response(for url: URL, mimeType: String, length: Int) -> URLResponse {
        let headers = ["Content-Type": mimeType, "Content-Length": String(length)]
        // HTTPURLResponse's initialiser fails only for a malformed HTTP version;
        // "HTTP/1.1" is well formed, so the fallback exists only to stay total.
        return HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
            ?? URLResponse(url: url, mimeType: mimeType, expectedContentLength: length, textEncodingName: nil)
    }

    /// A cached answer re-addressed to the URL that asked (which may order its query differently).
    static func response(for url: URL, answering cached: CachedURLResponse) -> URLResponse {
        let mimeType = (cached.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
            ?? cached.response.mimeType ?? "application/octet-stream"
        return response(for: url, mimeType: mimeType, length: cached.data.count)
    }
}
