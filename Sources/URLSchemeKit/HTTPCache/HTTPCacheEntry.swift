import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One stored HTTP response and what RFC 9111 needs to judge it: the times the
/// request was sent and the response arrived (for the age calculation), and the
/// request header values its `Vary` names (for selecting it again).
///
/// It is kept in a `QueryKeyedURLCache` as a `CachedURLResponse` whose `userInfo`
/// carries the extra fields as strings, so it shares that cache's memory and
/// disk tiers, checksums and eviction.
struct HTTPCacheEntry: Sendable {
    var url: URL
    var statusCode: Int
    /// The response's fields; what is derived from them (`cacheControl`,
    /// `date`, `freshnessLifetime`) is computed once, when they are set.
    var headers: HTTPHeaderFields {
        didSet { derive() }
    }
    var body: Data
    /// When the request that produced this response was sent (`request_time`).
    private(set) var requestTime: Date
    /// When the response was received (`response_time`).
    private(set) var responseTime: Date
    /// The request's values of the fields `Vary` names, by lower-cased name, in
    /// their stored form (the cache's keyed hash: a `Vary: Cookie` entry must not
    /// hold the cookie); a field the request did not carry is absent.
    var varyValues: [String: String] = [:]
    /// Whether the entry is in the shared partition, answering requests of any
    /// user: RFC 9111's shared-cache rules then apply (`s-maxage` sets its
    /// lifetime; `proxy-revalidate` and `s-maxage` forbid serving it stale).
    var isShared = false {
        didSet { derive() }
    }
    /// Set when this entry was read from a stored object `HitMemo` knows:
    /// answers built from it can be reused while unchanged.
    var memoKey: ObjectIdentifier?

    // MARK: Freshness (RFC 9111 §4.2)

    /// The response's `Cache-Control` directives.
    private(set) var cacheControl = CacheControl(nil)
    /// `date_value`: the origin's `Date`, or the response time when it sent no valid one.
    var date: Date { originDate ?? responseTime }
    private var originDate: Date?
    /// `freshness_lifetime` (see `lifetime()`).
    private(set) var freshnessLifetime: TimeInterval = 0

    private mutating func derive() {
        cacheControl = CacheControl(headers["Cache-Control"])
        originDate = headers["Date"].flatMap(HTTPDate.parse)
        freshnessLifetime = lifetime()
    }

    /// `current_age` (§4.2.3), in seconds.
    func currentAge(at now: Date) -> TimeInterval {
        // Several Age lines arrive joined by commas: the first one counts.
        let firstAge = headers["Age"]?.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init)
        let ageValue = TimeInterval(CacheControl.deltaSeconds(firstAge) ?? 0)
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether a stale copy must never answer without the origin's say-so:
    /// `must-revalidate`, and for a shared entry `proxy-revalidate` or
    /// `s-maxage` as well (RFC 9111 §5.2.2.2, §5.2.2.8, §5.2.2.10).
    var requiresRevalidation: Bool {
        cacheControl.mustRevalidate || (isShared && (cacheControl.contains("proxy-revalidate") || cacheControl.sharedMaxAge != nil))
    }

    /// `freshness_lifetime` (§4.2.1): for a shared entry `s-maxage`, else `max-age`, else
    /// `Expires` − `Date` (an invalid `Expires` is in the past), else the 10 %
    /// heuristic (§4.2.2) for a response that allows one, else 0.
    private func lifetime() -> TimeInterval {
        let control = cacheControl
        if isShared, let sharedMaxAge = control.sharedMaxAge { return TimeInterval(sharedMaxAge) }
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard Self.isHeuristicallyCacheable(statusCode) || control.isPublic,
              let modified = headers["Last-Modified"].flatMap(HTTPDate.parse) else { return 0 }
        return max(0, date.timeIntervalSince(modified)) / 10
    }

    /// Whether the explicit freshness information allows a heuristic at all.
    var hasExplicitFreshness: Bool {
        cacheControl.maxAge != nil || headers["Expires"] != nil || (isShared && cacheControl.sharedMaxAge != nil)
    }

    /// Remaining freshness in seconds (negative once stale).
    func timeToLive(at now: Date) -> TimeInterval { freshnessLifetime - currentAge(at: now) }

    var validators: (etag: String?, lastModified: String?) { (headers["ETag"], headers["Last-Modified"]) }
    var hasValidators: Bool { headers["ETag"] != nil || headers["Last-Modified"] != nil }

    /// Status codes a cache may store and give heuristic freshness (RFC 9110 §15.1).
    static func isHeuristicallyCacheable(_ status: Int) -> Bool {
        [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501].contains(status)
    }

    // MARK: Updating (RFC 9111 §3.2)

    /// Fields a 304 or a HEAD response must not replace: they describe the
    /// stored body or the connection, not the resource.
    private static let fieldsKeptOnUpdate: Set<String> = [
        "content-length", "content-encoding", "content-range", "transfer-encoding",
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade",
    ]

    /// Takes the fields of a 304 (or HEAD) response, and its times.
    mutating func update(with response: HTTPHeaderFields, requestTime: Date, responseTime: Date) {
        memoKey = nil
        self.requestTime = requestTime
        self.responseTime = responseTime
        var updated = headers
        for name in response.names where !Self.fieldsKeptOnUpdate.contains(name.lowercased()) {
            updated[name] = response[name]
        }
        headers = updated   // derived values are computed once, with the new times
    }

    // MARK: Vary (RFC 9111 §4.1)

    /// The lower-cased field names `Vary` lists; `["*"]` for `Vary: *`.
    var varyNames: [String] { Self.fieldNames(headers["Vary"]) }

    static func fieldNames(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { String($0).trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
    }

    /// The request's values for `names`, normalised (white space around commas
    /// removed), then put in their stored form by `stored`.
    static func values(of names: [String], in request: URLRequest,
                       stored: (String) -> String = { $0 }) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            guard let value = request.value(forHTTPHeaderField: name) else { continue }
            values[name] = stored(value.split(separator: ",").map { String($0).trimmingSpaces() }.joined(separator: ","))
        }
        return values
    }

    /// Whether this response may answer `request`: every field its `Vary` lists
    /// has the same value (or is absent from both); `Vary: *` never matches.
    /// `stored` is the form `varyValues` were stored in.
    func varyMatches(_ request: URLRequest, stored: (String) -> String = { $0 }) -> Bool {
        let names = varyNames
        guard !names.contains("*") else { return false }
        return Self.values(of: names, in: request, stored: stored) == varyValues
    }

    // MARK: Storage as a CachedURLResponse

    private enum Info {
        static let requestTime = "uskhttp.requestTime"
        static let responseTime = "uskhttp.responseTime"
        static let varyPrefix = "uskhttp.vary."
        static let shared = "uskhttp.shared"
    }

    /// Response fields a cache for many users neither stores nor replays: a
    /// cookie the origin set for one user's session must not reach another's
    /// (RFC 9111 §7.3 warns of it). A private cache keeps them, as the RFC
    /// allows, for the one user it serves.
    static let userFields = ["Set-Cookie", "Set-Cookie2"]

    /// Drops `userFields`, before a cache for many users stores the entry.
    mutating func removeUserFields() {
        for name in Self.userFields { headers[name] = nil }
    }

    var cachedResponse: CachedURLResponse? {
        guard let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1",
                                             headerFields: headers.dictionary) else { return nil }
        var info: [String: String] = [
            Info.requestTime: String(requestTime.timeIntervalSince1970),
            Info.responseTime: String(responseTime.timeIntervalSince1970),
        ]
        for (name, value) in varyValues { info[Info.varyPrefix + name] = value }
        if isShared { info[Info.shared] = "1" }
        return CachedURLResponse(response: response, data: body, userInfo: info, storagePolicy: .allowed)
    }

    init(url: URL, statusCode: Int, headers: HTTPHeaderFields, body: Data, requestTime: Date, responseTime: Date,
         varyValues: [String: String] = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyValues = varyValues
        derive()
    }

    /// The entry a stored `CachedURLResponse` holds; nil for anything else.
    init?(_ cached: CachedURLResponse) {
        guard let response = cached.response as? HTTPURLResponse, let url = response.url,
              let info = cached.userInfo as? [String: String],
              let requestTime = info[Info.requestTime].flatMap(Double.init),
              let responseTime = info[Info.responseTime].flatMap(Double.init) else { return nil }
        var vary: [String: String] = [:]
        for (name, value) in info where name.hasPrefix(Info.varyPrefix) {
            vary[String(name.dropFirst(Info.varyPrefix.count))] = value
        }
        self.init(url: url, statusCode: response.statusCode, headers: HTTPHeaderFields(response), body: cached.data,
                  requestTime: Date(timeIntervalSince1970: requestTime),
                  responseTime: Date(timeIntervalSince1970: responseTime), varyValues: vary)
        isShared = info[Info.shared] == "1"
        derive()   // observers do not run inside an initialiser
    }
}

extension CacheControl {
    /// A delta-seconds header such as `Age`: nil when absent or invalid.
    static func deltaSeconds(_ value: String?) -> Int? {
        guard let text = value?.trimmingSpaces(), !text.isEmpty,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return text.count > 10 ? 1 << 31 : min(Int(text) ?? 0, 1 << 31)
    }
}
