import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through an `HTTPCache`: decides from the store
/// (`HTTPCachePolicy`), forwards to the origin when it must, stores what the
/// origin answers, falls back to the store when the origin cannot be reached,
/// and hands exactly one outcome to `finish`.
///
///     request ─► unsafe method? ──yes──► forward ─► success: invalidate URI, Location, Content-Location
///        │no
///        ▼
///     lookup (memory, then disk; Vary) ─► decide ─┬─ serve (hit) ──────────────► answer + Age + Cache-Status
///                                                 ├─ serve + refresh in background (stale-while-revalidate)
///                                                 ├─ origin backing off and something stored ─► serve (offline)
///                                                 └─ forward (conditional when validating) ─┬─ 304 ─► update, serve stored body
///                                                                                          ├─ 5xx ─► stale-if-error or pass on
///                                                                                          ├─ other ─► store if allowed, pass on
///                                                                                          └─ unreachable ─► back-off; stored or error
struct HTTPCacheLoad: Sendable {
    let cache: HTTPCache
    /// The request as the origin will see it: the session's extra headers, its
    /// cookies and the fields the platform would add merged in, so that the
    /// partition and `Vary` are judged on what is really sent.
    let request: URLRequest
    /// The partition the request's credentials name (nil: the shared one).
    let partition: String?
    /// Stored redirects followed so far to get here.
    let hops: Int
    /// The longest a forwarded request may take, start to end (the outer
    /// session's `timeoutIntervalForResource`, which Linux's session does not
    /// enforce for a custom protocol); nil: no limit of ours.
    let timeLimit: TimeInterval?
    /// The outer session and its connection limit per origin (`ForwardingLanes`).
    let lane: (session: ObjectIdentifier, limit: Int)?
    /// The most body bytes the caller takes, when it said (`HTTPForwarder.bodyLimitField`).
    let bodyLimit: HTTPForwarder.BodyLimit?
    /// The request's URL.
    let url: URL
    /// The user's session's cookies, sent and stored by the forwarder.
    let cookies: SessionCookies?
    let cancellation: RenderCancellation
    let finish: @Sendable (ClientChannel.Outcome) -> Void

    /// A load of `request`; nil when it has no URL.
    init?(cache: HTTPCache, request: URLRequest, cookies: SessionCookies?, cancellation: RenderCancellation, hops: Int = 0,
          timeLimit: TimeInterval? = nil, bodyLimit: HTTPForwarder.BodyLimit? = nil, lane: (session: ObjectIdentifier, limit: Int)? = nil,
          finish: @escaping @Sendable (ClientChannel.Outcome) -> Void) {
        guard let url = request.url else { return nil }
        var request = request
        cookies?.addCookies(to: &request)
        PlatformRequestHeaders.addMissing(to: &request)
        self.cache = cache
        self.request = request
        self.partition = cache.partition(for: request)
        self.hops = hops
        self.timeLimit = timeLimit
        self.bodyLimit = bodyLimit
        self.lane = lane
        self.cookies = cookies
        self.url = url
        self.cancellation = cancellation
        self.finish = finish
    }

    private var method: String { request.httpMethod?.uppercased() ?? "GET" }

    /// URLError codes that mean the origin could not be reached at all.
    static let unreachableCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .timedOut, .networkConnectionLost, .notConnectedToInternet,
    ]

    /// The fast path, run on the session's work queue: the answer for a fresh
    /// hit held in memory, or nil when the load needs `run()` (disk, network).
    func answerFromMemory() -> ClientChannel.Outcome? {
        guard method == "GET" || method == "HEAD" else { return nil }
        let (entry, varyMiss) = cache.lookup(request, partition: partition, memoryOnly: true)
        guard let entry, RedirectedRequest.target(of: entry) == nil,
              case let .serve(served, status) = HTTPCachePolicy.decide(request, entry: entry, varyMiss: varyMiss, now: cache.clock())
        else { return nil }
        return answer(from: served, status)
    }

    /// The whole load; call off the session's work queue (it may read the disk).
    func run() {
        guard url.host?.isEmpty == false else {
            finish(.failed(URLErrors.make(.badURL, "\(url.absoluteString) has no host", url: url)))
            return
        }
        guard method == "GET" || method == "HEAD" else {
            forwardUnsafe()
            return
        }
        let now = cache.clock()
        let (entry, varyMiss) = cache.lookup(request, partition: partition)
        switch HTTPCachePolicy.decide(request, entry: entry, varyMiss: varyMiss, now: now) {
        case let .serve(entry, status):
            if let target = RedirectedRequest.target(of: entry), hops < Self.maximumStoredHops {
                follow(to: target)
            } else {
                serve(entry, status)
            }
        case let .serveAndRevalidate(entry, status):
            serve(entry, status)
            revalidateInBackground(entry)
        case .unavailable:
            finish(.failed(URLErrors.make(.resourceUnavailable,
                "no stored response for \(url.absoluteString), and the cache policy forbids loading", url: url)))
        case .gatewayTimeout:
            finish(.loaded(response(status: 504, headers: HTTPHeaderFields(), cacheStatus: CacheStatus(detail: "only-if-cached")), Data()))
        case let .forward(reason, validating, fallback):
            if let fallback, cache.reachability.isBackingOff(Origin(url), at: now), offlineRefusal(fallback, now: now) == nil {
                serve(fallback, CacheStatus(forward: reason, detail: "offline"))
                return
            }
            // A client's own condition is passed on as it is; ours would replace it.
            forward(reason, validating: HTTPCachePolicy.isConditional(request) ? nil : validating, fallback: fallback)
        }
    }

    /// Stored redirects followed in a row before the load goes to the origin
    /// (which then follows the rest itself).
    static let maximumStoredHops = 10

    /// Follows a stored redirect through the cache: the client is told only the
    /// final answer (reporting a redirect is fatal on Linux: trap 8), whose URL
    /// says where it came from.
    private func follow(to target: URL) {
        let next = RedirectedRequest.next(after: request, to: target, cookies: cookies)
        HTTPCacheLoad(cache: cache, request: next, cookies: cookies, cancellation: cancellation, hops: hops + 1,
                      timeLimit: timeLimit, bodyLimit: bodyLimit, lane: lane, finish: finish)?.run()
    }

    // MARK: Forwarding

    private func forward(_ reason: CacheStatus.Forward, validating: HTTPCacheEntry?, fallback: HTTPCacheEntry?) {
        var outgoing = request
        if let validating {
            let (etag, lastModified) = validating.validators
            if let etag { outgoing.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let lastModified { outgoing.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        }
        cache.forwarder.forward(outgoing, cookies: cookies, cancellation: cancellation, timeLimit: timeLimit, lane: lane, bodyLimit: bodyLimit) { result in
            let now = cache.clock()
            switch result {
            case let .failure(error):
                failed(error, reason: reason, fallback: fallback, now: now)
            case let .success(answer):
                cache.reachability.recordSuccess(Origin(url))
                answered(answer, reason: reason, validating: validating, fallback: fallback, now: now)
            }
        }
    }

    private func answered(_ answer: HTTPForwarder.Answer, reason: CacheStatus.Forward, validating: HTTPCacheEntry?,
                          fallback: HTTPCacheEntry?, now: Date) {
        let status = answer.response.statusCode
        let headers = Self.storableHeaders(answer.response, bodyLength: method == "HEAD" ? nil : answer.body.count)
        if status == 304, let validating, !Self.notModifiedSelects(headers, validating.headers, condition: answer.request) {
            // The origin's 304 names another representation than ours: ask again, unconditionally.
            forward(reason, validating: nil, fallback: fallback)
            return
        }
        if status == 304, var updated = validating ?? fallback,
           Self.notModifiedSelects(headers, updated.headers, condition: answer.request) {
            updated.update(with: headers, requestTime: answer.requestTime, responseTime: answer.responseTime)
            cache.refresh(updated, for: request)
            // Our own validation: the client gets the stored body. Its own condition: the 304 itself.
            if validating != nil {
                serve(updated, CacheStatus(forward: reason, forwardStatus: 304, stored: true))
                return
            }
        }
        if HTTPCachePolicy.isServerError(status), let fallback, HTTPCachePolicy.allowsStaleIfError(fallback, request: request, now: now) {
            serve(fallback, CacheStatus(forward: reason, forwardStatus: status, detail: "stale-if-error"))
            return
        }
        let entry = HTTPCacheEntry(url: answer.response.url ?? url, statusCode: status, headers: headers, body: answer.body,
                                   requestTime: answer.requestTime, responseTime: answer.responseTime)
        var cacheStatus = CacheStatus(forward: reason, forwardStatus: status)
        if method == "GET" {
            // Under the URL and fields last sent, not the first request's: after a
            // redirect to another host, its cookies decide the partition and Vary.
            cacheStatus.stored = cache.store(entry, for: answer.request, bodyFile: answer.bodyFile)
            for hop in answer.redirects where hop.response.url.map({ CacheKey(resource: $0) }) != nil {
                let hopEntry = HTTPCacheEntry(url: hop.response.url ?? url, statusCode: hop.response.statusCode,
                                              headers: Self.storableHeaders(hop.response, bodyLength: 0), body: Data(),
                                              requestTime: hop.requestTime, responseTime: hop.responseTime)
                cache.store(hopEntry, for: hop.request)
            }
        } else if status == 200, var stored = fallback {
            // A HEAD response freshens the stored GET response it describes, and
            // invalidates one it no longer describes (RFC 9111 §4.3.5).
            if !Self.headDescribes(headers, stored.headers) {
                cache.invalidate(url)
            } else if stored.hasValidators {
                stored.update(with: headers, requestTime: answer.requestTime, responseTime: answer.responseTime)
                cache.refresh(stored, for: request)
            }
        }
        finish(.loaded(response(status: status, headers: headers, cacheStatus: cacheStatus, url: entry.url), answer.body))
    }

    private func failed(_ error: URLError, reason: CacheStatus.Forward, fallback: HTTPCacheEntry?, now: Date) {
        let unreachable = Self.unreachableCodes.contains(error.code)
        if unreachable { cache.reachability.recordFailure(Origin(url), at: now) }
        if let fallback, error.code != .cancelled {
            if unreachable, offlineRefusal(fallback, now: now) == nil {
                serve(fallback, CacheStatus(forward: reason, detail: "offline"))
                return
            }
            if HTTPCachePolicy.allowsStaleIfError(fallback, request: request, now: now) {
                serve(fallback, CacheStatus(forward: reason, detail: "stale-if-error"))
                return
            }
        }
        guard unreachable else {
            finish(.failed(URLErrors.converting(error, url: url)))
            return
        }
        let why: String
        if let fallback, let refusal = offlineRefusal(fallback, now: now) {
            why = refusal
        } else if cache.lookup(request, partition: partition).entry != nil {
            // A reload asked for the origin alone: say so rather than claim nothing is stored.
            why = "and the request's cache policy (\(request.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData ? "reloadIgnoringLocalAndRemoteCacheData" : "reloadIgnoringLocalCacheData")) "
                + "forbids answering from the stored response; load it with .useProtocolCachePolicy or .returnCacheDataElseLoad to get it offline"
        } else {
            why = "and no response for it is stored"
        }
        let message = "\(url.absoluteString) could not be loaded (\(error.localizedDescription)), " + why
        finish(.failed(URLErrors.make(error.code, message, url: url, underlying: error)))
    }

    /// POST, PUT, DELETE and the like go to the origin unchanged; when they
    /// succeed, what is stored for the target, its `Location` and its
    /// `Content-Location` (same origin only) is invalidated (RFC 9111 §4.4).
    private func forwardUnsafe() {
        let method = self.method
        cache.forwarder.forward(request, cookies: cookies, cancellation: cancellation, timeLimit: timeLimit, lane: lane, bodyLimit: bodyLimit) { result in
            switch result {
            case let .failure(error):
                finish(.failed(URLErrors.converting(error, url: url)))
            case let .success(answer):
                let status = answer.response.statusCode
                let headers = Self.storableHeaders(answer.response, bodyLength: answer.body.count)
                if !HTTPCachePolicy.isSafe(method), (200..<400).contains(status) {
                    cache.invalidate(url)
                    for field in ["Location", "Content-Location"] {
                        guard let value = headers[field], let target = URL(string: value, relativeTo: url)?.absoluteURL,
                              Origin(target) == Origin(url) else { continue }
                        cache.invalidate(target)
                    }
                }
                let cacheStatus = CacheStatus(forward: .bypass, forwardStatus: status)
                finish(.loaded(response(status: status, headers: headers, cacheStatus: cacheStatus, url: answer.response.url ?? url), answer.body))
            }
        }
    }

    /// Refreshes a stale entry without anyone waiting (`stale-while-revalidate`), once at a time per URL.
    private func revalidateInBackground(_ entry: HTTPCacheEntry) {
        guard let key = CacheKey(resource: url).map({ key in partition.map { key.variant($0) } ?? key }),
              cache.revalidating.withLock({ $0.insert(key).inserted }) else { return }
        let background = HTTPCacheLoad(cache: cache, request: request, cookies: cookies, cancellation: RenderCancellation(), hops: hops,
                                       timeLimit: timeLimit, bodyLimit: bodyLimit, lane: lane) { _ in
            _ = cache.revalidating.withLock { $0.remove(key) }
        }
        background?.forward(.stale, validating: entry.hasValidators ? entry : nil, fallback: nil)
    }

    // MARK: Answers

    /// Answers from the store (see `answer(from:_:)`).
    private func serve(_ entry: HTTPCacheEntry, _ cacheStatus: CacheStatus) {
        finish(answer(from: entry, cacheStatus))
    }

    /// The stored status and fields with `Age` and `Cache-Status`; a 304 when
    /// the client's own condition matches; a 206 for a byte range it can
    /// serve; no body for HEAD.
    private func answer(from entry: HTTPCacheEntry, _ cacheStatus: CacheStatus) -> ClientChannel.Outcome {
        var headers = entry.headers
        headers["Age"] = String(Int(entry.currentAge(at: cache.clock()).rounded(.down)))
        if HTTPCachePolicy.isConditional(request), HTTPCachePolicy.conditionMatches(request, entry: entry) {
            headers["Content-Length"] = nil
            return .loaded(response(status: 304, headers: headers, cacheStatus: cacheStatus, url: entry.url), Data())
        }
        if method == "GET", let range = HTTPCachePolicy.byteRange(request, entry: entry) {
            headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(entry.body.count)"
            headers["Content-Length"] = String(range.count)
            return .loaded(response(status: 206, headers: headers, cacheStatus: cacheStatus, url: entry.url), entry.body.subdata(in: range))
        }
        let body = method == "HEAD" ? Data() : entry.body
        let answer = cache.hits.answer(for: entry, headerValue: cacheStatus.headerValue, age: headers["Age"] ?? "") {
            response(status: entry.statusCode, headers: headers, cacheStatus: cacheStatus, url: entry.url)
        }
        return .loaded(answer, body)
    }

    private func response(status: Int, headers: HTTPHeaderFields, cacheStatus: CacheStatus, url: URL? = nil) -> URLResponse {
        var headers = headers
        headers["Cache-Status"] = cacheStatus.appended(to: headers["Cache-Status"])
        let url = url ?? self.url
        // HTTPURLResponse's initialiser fails only for a malformed HTTP version, and "HTTP/1.1" is well formed.
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
    }

    /// Why `entry` may not answer while its origin cannot be reached, or nil
    /// when it may: past the configured age limit, or, unless the
    /// configuration overrides it, marked `no-cache` or `must-revalidate`
    /// (RFC 9111 §4.2.4: an explicit directive forbids serving it stale, even
    /// disconnected). The reason ends the error message, naming the setting.
    private func offlineRefusal(_ entry: HTTPCacheEntry, now: Date) -> String? {
        let control = entry.cacheControl
        if control.noCache || entry.requiresRevalidation, !cache.configuration.offlineOverridesRevalidation {
            let directive = control.noCache ? "no-cache" : control.mustRevalidate ? "must-revalidate"
                : control.contains("proxy-revalidate") ? "proxy-revalidate" : "s-maxage (in a shared cache)"
            return "and the stored response is marked \(directive), which forbids answering offline (RFC 9111 §4.2.4); "
                + "set HTTPCache.Configuration.offlineOverridesRevalidation to answer with it anyway"
        }
        if let limit = cache.configuration.maximumOfflineAge, entry.currentAge(at: now) > limit {
            return "and the stored response is \(Int(entry.currentAge(at: now))) s old, past the offline limit of \(Int(limit)) s "
                + "(HTTPCache.Configuration.maximumOfflineAge)"
        }
        return nil
    }

    /// The origin's fields as they describe the body we hold: the inner session
    /// has already decoded any `Content-Encoding`, so that field goes and
    /// `Content-Length` is the decoded length; connection fields are not kept
    /// (RFC 9111 §3.1).
    static func storableHeaders(_ response: HTTPURLResponse, bodyLength: Int?) -> HTTPHeaderFields {
        var headers = HTTPHeaderFields(response)
        // Fields that Connection lists belong to the connection, not to the response.
        for name in (headers["Connection"] ?? "").split(separator: ",") { headers[String(name).trimmingSpaces()] = nil }
        for name in ["Connection", "Keep-Alive", "Transfer-Encoding", "Proxy-Connection", "TE", "Trailer", "Upgrade"] {
            headers[name] = nil
        }
        if let bodyLength {
            headers["Content-Encoding"] = nil
            headers["Content-Length"] = String(bodyLength)
        }
        return headers
    }

    /// Whether a 304 selects the stored response (RFC 9111 §4.3.4): by its
    /// `ETag` when it has one, else by its `Last-Modified`; with neither, the
    /// 304 answers the condition that was sent (`condition`, the request as
    /// the origin saw it), so it selects the stored response that condition
    /// named, or one that has no validator at all.
    static func notModifiedSelects(_ new: HTTPHeaderFields, _ stored: HTTPHeaderFields, condition: URLRequest) -> Bool {
        if let tag = new["ETag"] { return tag == stored["ETag"] }
        if let modified = new["Last-Modified"] { return modified == stored["Last-Modified"] }
        if let sent = condition.value(forHTTPHeaderField: "If-None-Match") {
            guard let tag = stored["ETag"] else { return false }
            return sent.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag }
        }
        if let since = condition.value(forHTTPHeaderField: "If-Modified-Since") { return stored["Last-Modified"] == since }
        return stored["ETag"] == nil && stored["Last-Modified"] == nil
    }

    /// Whether a HEAD response still describes the stored GET response: its
    /// `ETag`, `Last-Modified` and `Content-Length`, where both have them, are
    /// the same (RFC 9111 §4.3.5).
    static func headDescribes(_ head: HTTPHeaderFields, _ stored: HTTPHeaderFields) -> Bool {
        ["ETag", "Last-Modified", "Content-Length"].allSatisfy { name in
            guard let new = head[name], let old = stored[name] else { return true }
            return new == old
        }
    }
}
