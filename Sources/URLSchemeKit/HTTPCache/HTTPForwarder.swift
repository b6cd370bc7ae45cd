import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the HTTP cache's requests to the origin through an inner `URLSession`.
///
/// Loop guard: the inner session's `protocolClasses` never contain
/// `HTTPCacheURLProtocol` (a property set with `URLProtocol.setProperty` is lost
/// on Linux, so a marked request could not be told apart). The inner session
/// follows redirects itself (`wasRedirectedTo` is fatal on Linux) and keeps no
/// cache and no cookies of its own: the cookies are the user's session's
/// (`SessionCookies`), sent and stored per load, redirects included. An
/// authentication challenge comes back as the `401` it is (Linux's default
/// handling of one never completes the load). Bodies are collected in memory
/// up to `spoolThreshold` and in a spool file past it (`SpooledBody`), up to
/// `maximumResponseSize`, or the smaller limit the request names
/// (`bodyLimitField`, e.g. a tile loader's `maximumTileBytes`): a larger one
/// fails as soon as its length is known or reached, is cancelled
/// (`TransferStops`), and every chunk that still arrives is dropped.
///
/// Threads: `forward` must not be called on the outer session's work queue
/// (creating a task from inside `startLoading()` deadlocks there), and
/// cancellations hop to another queue (`TransferStops`) for the same reason
/// (they arrive from `stopLoading()`); delegate callbacks arrive on the inner session's own
/// delegate queue, and completions leave it for `completionQueue`.
package final class HTTPForwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `session` is set once in init and URLSession is
    // thread-safe; every mutable field lives in `loads`, a Mutex.

    /// What the origin answered, with the times RFC 9111's age calculation needs.
    package struct Answer: Sendable {
        package var response: HTTPURLResponse
        package var body: Data
        package var requestTime: Date
        package var responseTime: Date
        /// The request as it was last sent (the final hop's URL, cookies and
        /// fields): what the answer is stored under and its `Vary` selected by.
        package var request: URLRequest
        /// The redirects followed on the way, first first (each hop's own
        /// request, response and times, body none).
        package var redirects: [Answer] = []
        /// The spool file `body` is mapped from, when the cache may make it its entry file.
        var bodyFile: SpoolFile?
    }

    package typealias Completion = @Sendable (Result<Answer, URLError>) -> Void

    private struct Load {
        var body: SpooledBody
        var response: HTTPURLResponse?
        var requestTime: Date
        var responseTime: Date?
        var completion: Completion
        var failure: URLError?
        var cookies: SessionCookies?
        var mainDocumentURL: URL?
        /// The request sent last (the first one, then each redirect's).
        var sent: URLRequest
        var redirects: [Answer] = []
        /// The outer session's share this load holds, given back when it ends.
        var lane: ForwardingLanes.Lane?
        /// Set when the origin asked for credentials: the cancellation that follows is its 401, not a failure.
        var challenged = false
        /// Ends the load at its time limit; cancelled when it ends first.
        var timer: TimeLimit?
        /// The most body bytes taken, and the setting that says so.
        var limit: BodyLimit
        /// Set when the caller was answered before the transfer ended (its time
        /// limit passed): the body is dropped by the next callback, on the
        /// delegate queue, which alone touches it.
        var answered = false
    }

    /// The most bytes of a body a load takes, and the setting that set it (named in the error).
    package struct BodyLimit: Sendable, Equatable {
        var bytes: Int
        var setting: String
        /// Another limit for a `200` (a range request answered with the whole file).
        var whole: Int?

        package init(bytes: Int, setting: String, whole: Int? = nil) {
            self.bytes = bytes
            self.setting = setting
            self.whole = whole
        }

        /// The limit a request names in `bodyLimitField` (`<bytes>; [200=<bytes>;] <setting>`),
        /// nil when it names none or a malformed one.
        init?(field: String?) {
            let parts = (field ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first, let bytes = Int(first), bytes >= 0 else { return nil }
            let whole = parts.dropFirst().first { $0.hasPrefix("200=") }.flatMap { Int($0.dropFirst(4)) }
            let name = parts.dropFirst().last { !$0.hasPrefix("200=") } ?? ""
            self.init(bytes: bytes, setting: name.isEmpty || name.count > 80 ? "the request's limit" : name, whole: whole)
        }

        /// The value of `bodyLimitField` for this limit.
        var field: String { "\(bytes); " + (whole.map { "200=\($0); " } ?? "") + setting }

        /// The limit for an answer of `status`, in bytes.
        func bytes(for status: Int?) -> Int { status == 200 ? whole ?? bytes : bytes }

        /// What the error says of the limit for `status`.
        func describe(for status: Int?) -> String {
            "the limit of \(bytes(for: status)) bytes (\(setting))"
        }
    }

    /// The request field by which a caller inside the package tells the
    /// cache the most body bytes it will take (a tile's, a range's size):
    /// the forwarded load ends there as the bytes arrive, instead of after
    /// the whole body reached the disk. `HTTPCacheURLProtocol` removes it
    /// before anything is sent, stored or keyed (trap 9: a request property
    /// would be lost on the way).
    static let bodyLimitField = "X-URLSchemeKit-Body-Limit"

    let maximumResponseSize: Int
    /// Bytes of a body held in memory before it goes to a spool file.
    let spoolThreshold: Int
    /// The disk store's temporary folder, where spooled bodies can become entries (nil: no disk store).
    private let spoolFolder: URL?
    private let clock: @Sendable () -> Date
    private let loads = Mutex<[Int: Load]>([:])
    /// Cancels tasks once, off the delegate and timer queues.
    private let stops = TransferStops()
    /// Each outer session's share of the connections to each origin.
    private let lanes = ForwardingLanes(queue: HTTPForwarder.controlQueue)
    private var session: URLSession!
    private static let controlQueue = DispatchQueue(label: "URLSchemeKit.HTTPForwarder.cancel", attributes: .concurrent)
    private static let completionQueue = DispatchQueue(label: "URLSchemeKit.HTTPForwarder.completion", qos: .userInitiated,
                                                       attributes: .concurrent)

    package init(maximumResponseSize: Int, spoolThreshold: Int, spoolFolder: URL?, clock: @escaping @Sendable () -> Date) {
        self.maximumResponseSize = maximumResponseSize
        self.spoolThreshold = spoolThreshold
        self.spoolFolder = spoolFolder
        self.clock = clock
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Shared by every session using the cache: a jar here would mix their cookies.
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { $0 != HTTPCacheURLProtocol.self }
        // Each outer session keeps to its own limit per host (ForwardingLanes);
        // the shared inner session must not hold them all to six between them.
        configuration.httpMaximumConnectionsPerHost = 4_096
        // Serial (a body's chunks arrive in order), and bounded: past 1,024
        // chunks waiting, the session stops reading (trap 19).
        session = URLSession(configuration: configuration, delegate: self,
                             delegateQueue: TransferStops.delegateQueue(named: "URLSchemeKit.HTTPForwarder.delegate"))
    }

    /// Sends `request` with `cookies`, the user's session's, and stores there
    /// what the origin sets; `completion` runs once, on a concurrent queue of
    /// the forwarder's (a cancelled request completes with `.cancelled`).
    /// Never call this on a URLSession's work queue (from `startLoading()`).
    /// `timeLimit` bounds the whole load, redirects and body included: past
    /// it, the load fails with `.timedOut` naming the limit.
    /// `lane` names the outer session and its connection limit per origin
    /// (`ForwardingLanes`); a load past that limit waits for one of its own
    /// session's loads to that origin to end, not for other sessions'.
    /// `bodyLimit`: a limit below `maximumResponseSize` the caller set.
    package func forward(_ request: URLRequest, cookies: SessionCookies?, cancellation: RenderCancellation?, timeLimit: TimeInterval? = nil,
                 lane: (session: ObjectIdentifier, limit: Int)? = nil, bodyLimit: BodyLimit? = nil, completion: @escaping Completion) {
        let ours = BodyLimit(bytes: maximumResponseSize, setting: "HTTPCache.Configuration.maximumResponseSize")
        // The caller's limit, where it is the lower one (a limit for a 200 above ours is ours).
        let limit = bodyLimit.map { BodyLimit(bytes: min($0.bytes, ours.bytes), setting: $0.bytes < ours.bytes ? $0.setting : ours.setting,
                                             whole: $0.whole.map { min($0, ours.bytes) }) } ?? ours
        guard let lane, let url = request.url else {
            return start(request, cookies: cookies, cancellation: cancellation, timeLimit: timeLimit, lane: nil, limit: limit, completion: completion)
        }
        let key = ForwardingLanes.Lane(session: lane.session, origin: Origin(url))
        lanes.admit(key, limit: lane.limit) { [self] in
            guard cancellation?.isCancelled != true else {
                lanes.release(key)
                return completion(.failure(URLError(.cancelled)))
            }
            start(request, cookies: cookies, cancellation: cancellation, timeLimit: timeLimit, lane: key, limit: limit, completion: completion)
        }
    }

    private func start(_ request: URLRequest, cookies: SessionCookies?, cancellation: RenderCancellation?, timeLimit: TimeInterval?,
                       lane: ForwardingLanes.Lane?, limit: BodyLimit, completion: @escaping Completion) {
        var outgoing = request
        cookies?.addCookies(to: &outgoing)
        outgoing.cachePolicy = .reloadIgnoringLocalCacheData
        // Set explicitly: the inner session honours a request's time-out only when it was set on that request.
        outgoing.timeoutInterval = request.timeoutInterval
        let task = session.dataTask(with: outgoing)
        loads.withLock {
            $0[task.taskIdentifier] = Load(body: SpooledBody(memoryLimit: spoolThreshold, storeFolder: spoolFolder), requestTime: clock(),
                                           completion: completion, cookies: cookies,
                                           mainDocumentURL: request.mainDocumentURL, sent: outgoing, lane: lane, limit: limit)
        }
        cancellation?.onCancel { [weak self] in
            guard let self, loads.withLock({ $0[task.taskIdentifier] != nil }) else { return }
            stops.stop(task)
        }
        if let timeLimit, timeLimit > 0, timeLimit < Self.longestTimer {
            let timer = TimeLimit(after: timeLimit, on: Self.controlQueue) { [weak self] in self?.expire(task, after: timeLimit) }
            loads.withLock { $0[task.taskIdentifier]?.timer = timer }
        }
        task.resume()
    }

    /// Ends the inner session once its loads are done (it holds this
    /// forwarder as its delegate until then), from a queue of the forwarder's:
    /// the cache going away may happen on a session's work queue.
    package func invalidate() {
        let session = self.session
        Self.controlQueue.async { session?.finishTasksAndInvalidate() }
    }

    // MARK: URLSessionDataDelegate

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let now = clock()
        let (tooLarge, load) = loads.withLock { loads -> (Bool, Load?) in
            guard var load = loads[dataTask.taskIdentifier] else { return (false, nil) }
            load.response = response as? HTTPURLResponse
            load.responseTime = now
            let tooLarge = response.expectedContentLength > Int64(load.limit.bytes(for: load.response?.statusCode))
            if tooLarge {
                load.failure = tooLargeError(response.url, length: Int(response.expectedContentLength), limit: load.limit, status: load.response?.statusCode)
            }
            loads[dataTask.taskIdentifier] = load
            return (tooLarge, load)
        }
        if let http = response as? HTTPURLResponse {
            load?.cookies?.store(from: http, for: dataTask.currentRequest?.url, mainDocumentURL: load?.mainDocumentURL)
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    /// The origin wants credentials. The user's session's delegate and
    /// credential storage are not reachable from here, and Linux's default
    /// handling suspends the task for good (trap 16): so the challenge is
    /// cancelled, and the 401 already received, headers and body, becomes the
    /// answer (`HTTPCacheURLProtocol.deliverable` decides what the client sees).
    package func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        loads.withLock { $0[task.taskIdentifier]?.challenged = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// A redirect: its cookies are stored, the next hop gets the cookies of its
    /// own URL and, on another origin, no `Authorization`
    /// (`RedirectedRequest`), and the hop is noted so the cache can store it.
    package func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let now = clock()
        let load = loads.withLock { $0[task.taskIdentifier] }
        load?.cookies?.store(from: response, for: load?.sent.url, mainDocumentURL: load?.mainDocumentURL)
        guard let load, let to = request.url else { return completionHandler(request) }
        var next = RedirectedRequest.next(after: load.sent, to: to, cookies: load.cookies)
        next.httpMethod = request.httpMethod
        next.httpBody = request.httpBody
        let hop = Answer(response: response, body: Data(), requestTime: load.redirects.last?.responseTime ?? load.requestTime,
                         responseTime: now, request: load.sent)
        loads.withLock {
            $0[task.taskIdentifier]?.redirects.append(hop)
            $0[task.taskIdentifier]?.sent = next
        }
        completionHandler(next)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (body, failed) = loads.withLock { loads -> (SpooledBody?, Load?) in
            guard let load = loads[dataTask.taskIdentifier] else { return (nil, nil) }
            guard !load.answered, load.body.count + data.count <= load.limit.bytes(for: load.response?.statusCode) else {
                var failed = loads.removeValue(forKey: dataTask.taskIdentifier)
                if !load.answered {
                    failed?.failure = tooLargeError(dataTask.currentRequest?.url, length: load.body.count + data.count, limit: load.limit,
                                                     status: load.response?.statusCode)
                }
                return (nil, failed)
            }
            return (load.body, nil)
        }
        guard let body else {
            // Past the limit, answered already (timed out) or ended: drop the
            // chunk and answer now, rather than when the platform stops the transfer.
            stops.stop(dataTask)
            if let failed { complete(failed, with: .failure(failed.failure ?? URLError(.dataLengthExceedsMaximum))) }
            return
        }
        do {
            try body.append(data)
        } catch {
            guard let load = loads.withLock({ $0.removeValue(forKey: dataTask.taskIdentifier) }) else { return }
            stops.stop(dataTask)
            complete(load, with: .failure(error as? URLError ?? URLError(.cannotWriteToFile)))
        }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // The task's last callback: no chunk of it can arrive after this.
        stops.ended(task)
        guard let load = loads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result: Result<Answer, URLError>
        if let failure = load.failure {
            result = .failure(failure)
        } else if let error, !(load.challenged && load.response != nil) {
            result = .failure(error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error as NSError]))
        } else if let response = load.response ?? task.response as? HTTPURLResponse {
            result = .success(Answer(response: response, body: Data(),
                                     requestTime: load.redirects.last?.responseTime ?? load.requestTime,
                                     responseTime: load.responseTime ?? clock(), request: load.sent, redirects: load.redirects))
        } else {
            result = .failure(URLErrors.make(.badServerResponse, "the origin sent no HTTP response", url: task.currentRequest?.url))
        }
        complete(load, with: result)
    }

    /// Limits beyond this (URLSession's default resource time-out is a week)
    /// need no timer of ours.
    private static let longestTimer: TimeInterval = 86_400

    /// The load's time limit passed: it fails now, whatever the platform does
    /// with the cancel, which is sent from another queue (this timer's must not
    /// wait for the session's work queue: trap 19). The body stays with the
    /// delegate queue, which drops it, spool file and all, at the task's next
    /// callback (a chunk, or the end the cancel brings).
    private func expire(_ task: URLSessionTask, after limit: TimeInterval) {
        guard let load = loads.withLock({ loads -> Load? in
            guard let load = loads[task.taskIdentifier], !load.answered else { return nil }
            loads[task.taskIdentifier]?.answered = true
            return load
        }) else { return }
        stops.stop(task)
        answer(load, with: .failure(URLErrors.make(.timedOut,
            "the load took longer than its time limit of \(limit) s (the session's timeoutIntervalForResource)",
            url: task.originalRequest?.url)))
    }

    /// Hands `result` (with the body read back, for a success) to the load's
    /// completion, once, and drops what the load held. On the delegate queue
    /// only (it finishes the body); a load answered already just drops it.
    private func complete(_ load: Load, with result: Result<Answer, URLError>) {
        guard !load.answered else { return load.body.discard() }
        var outcome = result
        if case var .success(answer) = result {
            do {
                (answer.body, answer.bodyFile) = try load.body.finish()
                outcome = .success(answer)
            } catch {
                outcome = .failure(error as? URLError ?? URLError(.cannotOpenFile))
            }
        }
        load.body.discard()
        answer(load, with: outcome)
    }

    /// Hands `outcome` to the load's completion and gives back its lane and timer.
    private func answer(_ load: Load, with outcome: Result<Answer, URLError>) {
        load.timer?.cancel()
        if let lane = load.lane { lanes.release(lane) }
        // Off the inner session's serial delegate queue: what follows stores to disk,
        // and every other forwarded request's callbacks wait behind that queue.
        let completion = load.completion
        Self.completionQueue.async { completion(outcome) }
    }

    private func tooLargeError(_ url: URL?, length: Int, limit: BodyLimit, status: Int?) -> URLError {
        URLErrors.make(.dataLengthExceedsMaximum, "the response body (\(length) bytes or more) exceeds \(limit.describe(for: status))", url: url)
    }
}

/// A one-shot timer that ends a load, cancelled when the load ends first.
private final class TimeLimit: @unchecked Sendable {
    // @unchecked Sendable: a dispatch source is thread-safe (libdispatch
    // objects may be used from any thread), and `source` is never reassigned.
    private let source: DispatchSourceTimer

    init(after seconds: TimeInterval, on queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + seconds)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() { source.cancel() }
}
