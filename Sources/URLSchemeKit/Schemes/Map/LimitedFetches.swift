import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of the map's own HTTP fetches (`HTTPTileLoader`'s
/// tiles, `HTTPRangeByteSource`'s ranges): collects each answer up to the
/// limit its fetch sets for the response, and ends a fetch the moment its
/// body passes that limit, as the bytes arrive: the waiting caller is
/// answered at once, the transfer is cancelled once from another queue and
/// every later chunk dropped (`TransferStops`; the session's delegate queue
/// must be `delegateQueue`, which holds the sockets back while chunks wait).
/// A redirect to another origin carries no credential (`RedirectedRequest`).
///
/// Each fetch also names the most bytes it takes in
/// `HTTPForwarder.bodyLimitField` when the session loads through an
/// `HTTPCache` (`requestLimit(_:_:)`), so the cache ends the forwarded load
/// there too instead of spooling the whole body first.
final class LimitedFetches: NSObject, URLSessionDataDelegate, Sendable {
    /// What a fetch does with a response.
    enum Verdict: Sendable {
        /// Takes the body up to `limit` bytes; past it the fetch fails with `overflow`.
        case take(limit: Int, overflow: String)
        /// Refuses the answer, saying why.
        case refuse(String)
        /// Takes the answer as empty (a tile server's "nothing here").
        case empty
    }

    /// One request's answer as it arrives.
    final class Fetch: Sendable {
        struct Outcome {
            var response: HTTPURLResponse?
            var bytes: [UInt8] = []
            /// Why the fetch failed, first reason only.
            var failure: String?
            /// The response was taken as empty (`Verdict.empty`).
            var empty = false
            /// The body's limit and what is said past it, once the response came.
            var limit: (bytes: Int, overflow: String)?
        }

        let outcome = Mutex(Outcome())
        /// Judges the response (status, stated length).
        let judge: @Sendable (HTTPURLResponse) -> Verdict
        private let done = DispatchSemaphore(value: 0)
        private let finished = Atomic<Bool>(false)

        init(judge: @escaping @Sendable (HTTPURLResponse) -> Verdict) {
            self.judge = judge
        }

        func fail(_ reason: String) {
            outcome.withLock { if $0.failure == nil { $0.failure = reason } }
        }

        /// Lets the waiting caller go, once.
        func finish() {
            if finished.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged { done.signal() }
        }

        /// Waits until the fetch ends or `seconds` pass; true when it ended.
        func wait(seconds: TimeInterval) -> Bool {
            done.wait(timeout: .now() + seconds) == .success
        }
    }

    private let fetches = SessionTaskTable<Fetch>()
    private let stops = TransferStops()
    /// The session's delegate queue: serial and bounded (`TransferStops.delegateQueue(named:)`).
    let delegateQueue: OperationQueue

    init(name: String) {
        delegateQueue = TransferStops.delegateQueue(named: "URLSchemeKit.\(name).delegate")
    }

    /// The fetch `task`'s callbacks fill in, its response judged by `judge`.
    func begin(_ task: URLSessionTask, judge: @escaping @Sendable (HTTPURLResponse) -> Verdict) -> Fetch {
        let fetch = Fetch(judge: judge)
        fetches.add(fetch, for: task)
        return fetch
    }

    /// Cancels `task` (a cancelled render, a caller that stopped waiting) if it
    /// is still running, once, without waiting.
    func cancel(_ task: URLSessionTask) {
        guard fetches.value(for: task) != nil else { return }
        stops.stop(task)
    }

    /// `request` with `limit` named for an `HTTPCache` the session loads
    /// through (nothing is added otherwise: the field is for the cache, not
    /// the origin).
    static func requestLimit(_ request: inout URLRequest, _ limit: HTTPForwarder.BodyLimit, configuration: URLSessionConfiguration) {
        guard configuration.protocolClasses?.contains(where: { $0 == HTTPCacheURLProtocol.self }) == true else { return }
        request.setValue(limit.field, forHTTPHeaderField: HTTPForwarder.bodyLimitField)
    }

    /// Credentials among `configuration`'s additional headers, removed from
    /// it so that they go on each request instead: the platform adds a
    /// configuration's headers to every hop of a redirect, whatever its
    /// origin, where a request's own can be dropped (`RedirectedRequest`).
    static func takeCredentials(from configuration: URLSessionConfiguration) -> [String: String] {
        var headers = configuration.httpAdditionalHeaders ?? [:]
        var taken: [String: String] = [:]
        for case let (name as String, value as String) in headers where ["authorization", "cookie"].contains(name.lowercased()) {
            taken[name] = value
            headers[name] = nil
        }
        configuration.httpAdditionalHeaders = headers
        return taken
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let fetch = fetches.value(for: dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            fetch.fail("the answer is not HTTP")
            return completionHandler(.cancel)
        }
        fetch.outcome.withLock { $0.response = http }
        switch fetch.judge(http) {
        case let .take(limit, overflow):
            fetch.outcome.withLock { $0.limit = (limit, overflow) }
            completionHandler(.allow)
        case let .refuse(reason):
            fetch.fail(reason)
            completionHandler(.cancel)
        case .empty:
            fetch.outcome.withLock { $0.empty = true }
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let fetch = fetches.value(for: dataTask) else { return }
        let overflow = fetch.outcome.withLock { outcome -> String? in
            guard outcome.failure == nil, let limit = outcome.limit else { return nil }
            guard outcome.bytes.count + data.count <= limit.bytes else { return limit.overflow }
            outcome.bytes.append(contentsOf: data)
            return nil
        }
        if let overflow {
            // Answered now; the transfer may run on a while, its chunks dropped above.
            fetch.fail(overflow)
            stops.stop(dataTask)
            fetch.finish()
        }
    }

    /// A redirect: the next hop without `Authorization` (or a hand-set
    /// `Cookie`) when it goes to another origin.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let from = task.currentRequest ?? task.originalRequest, let to = request.url else { return completionHandler(request) }
        var next = RedirectedRequest.next(after: from, to: to, cookies: nil)
        next.httpMethod = request.httpMethod
        next.httpBody = request.httpBody
        completionHandler(next)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // The task's last callback: no chunk of it can arrive after this.
        stops.ended(task)
        guard let fetch = fetches.remove(task) else { return }
        if let error { fetch.fail(error.localizedDescription) }
        fetch.finish()
    }
}
