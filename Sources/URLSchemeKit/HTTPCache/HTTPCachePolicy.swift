import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rules of RFC 9111 (as a private cache), RFC 5861 and RFC 8246, and the
/// `URLRequest.CachePolicy` cases, as pure functions of a request, what is
/// stored for it and the time: no I/O here, so every rule is tested alone.
enum HTTPCachePolicy {
    /// What to do with a GET or HEAD request.
    enum Decision {
        /// Answer from the store, without the origin.
        case serve(HTTPCacheEntry, CacheStatus)
        /// Answer from the store and refresh it in the background (`stale-while-revalidate`).
        case serveAndRevalidate(HTTPCacheEntry, CacheStatus)
        /// Ask the origin; `validating` is set when the request becomes
        /// conditional on it, `fallback` is what offline or error answers may use.
        case forward(CacheStatus.Forward, validating: HTTPCacheEntry?, fallback: HTTPCacheEntry?)
        /// `.returnCacheDataDontLoad` with nothing stored.
        case unavailable
        /// `only-if-cached` with nothing usable stored: a 504 (RFC 9111 §5.2.1.7).
        case gatewayTimeout
    }

    /// Decides how to answer `request` given the stored `entry` (nil: nothing
    /// stored; `varyMiss`: something stored, but for other request headers).
    static func decide(_ request: URLRequest, entry: HTTPCacheEntry?, varyMiss: Bool, now: Date) -> Decision {
        let control = requestControl(request)
        let miss: CacheStatus.Forward = varyMiss ? .varyMiss : .uriMiss
        switch request.cachePolicy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            return .forward(.request, validating: nil, fallback: nil)
        case .returnCacheDataDontLoad:
            guard let entry else { return .unavailable }
            return .serve(entry, hitStatus(entry, now: now))
        case .returnCacheDataElseLoad:
            guard let entry else { return .forward(miss, validating: nil, fallback: nil) }
            return .serve(entry, hitStatus(entry, now: now))
        case .reloadRevalidatingCacheData:
            guard let entry else { return .forward(miss, validating: nil, fallback: nil) }
            if entry.cacheControl.immutable, entry.timeToLive(at: now) > 0 { return .serve(entry, hitStatus(entry, now: now)) }
            return .forward(.request, validating: validator(entry), fallback: entry)
        default:
            break
        }

        guard let entry else { return control.onlyIfCached ? .gatewayTimeout : .forward(miss, validating: nil, fallback: nil) }
        let stored = entry.cacheControl
        let age = entry.currentAge(at: now)
        let timeToLive = entry.freshnessLifetime - age
        let status = hitStatus(entry, now: now)

        if control.noCache {
            return control.onlyIfCached ? .gatewayTimeout : .forward(.request, validating: validator(entry), fallback: entry)
        }
        if stored.noCache {
            return control.onlyIfCached ? .gatewayTimeout : .forward(.stale, validating: validator(entry), fallback: entry)
        }
        var acceptable = timeToLive > 0
        if let maxAge = control.maxAge, age > TimeInterval(maxAge) { acceptable = false }
        if let minFresh = control.minFresh, timeToLive < TimeInterval(minFresh) { acceptable = false }
        if acceptable { return .serve(entry, status) }

        // Stale (or not fresh enough for this request). must-revalidate forbids every stale answer.
        let staleness = -timeToLive
        if timeToLive <= 0, !entry.requiresRevalidation, let maxStale = control.maxStale, staleness <= TimeInterval(maxStale) {
            return .serve(entry, status)
        }
        if control.onlyIfCached { return .gatewayTimeout }
        if timeToLive <= 0, !entry.requiresRevalidation, let window = stored.staleWhileRevalidate,
           staleness <= TimeInterval(window) {
            var revalidating = status
            revalidating.detail = "stale-while-revalidate"
            return .serveAndRevalidate(entry, revalidating)
        }
        // Still fresh, but not fresh enough for this request's own directives.
        return .forward(timeToLive > 0 ? .request : .stale, validating: validator(entry), fallback: entry)
    }

    /// The request's directives; `Pragma: no-cache` counts as `Cache-Control:
    /// no-cache` when the request has no `Cache-Control` (RFC 9111 §5.4).
    static func requestControl(_ request: URLRequest) -> CacheControl {
        let field = request.value(forHTTPHeaderField: "Cache-Control")
        if field == nil, let pragma = request.value(forHTTPHeaderField: "Pragma"),
           pragma.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "no-cache" }) {
            return CacheControl("no-cache")
        }
        return CacheControl(field)
    }

    /// Whether a response to GET may be stored (RFC 9111 §3): in a shared
    /// partition (`entry.isShared`), by the rules of a shared cache (§3.5:
    /// never `private`, and an answer to a request with credentials only when
    /// `public`, `s-maxage` or `must-revalidate` says others may have it);
    /// otherwise by those of a private cache.
    static func isStorable(_ entry: HTTPCacheEntry, request: URLRequest) -> Bool {
        let response = entry.cacheControl
        // must-understand (RFC 9111 §5.2.2.3): no-store yields when the status code's caching rules are known here.
        let understood = response.contains("must-understand") && HTTPCacheEntry.isHeuristicallyCacheable(entry.statusCode)
        guard !response.noStore || understood, !requestControl(request).noStore,
              (200..<600).contains(entry.statusCode), entry.statusCode != 206, entry.statusCode != 304,
              !entry.varyNames.contains("*") else { return false }
        if entry.isShared {
            guard !response.contains("private") else { return false }
            if CachePartitions.hasCredentials(request), !isSharedDespiteCredentials(response) { return false }
        }
        return entry.hasExplicitFreshness || response.isPublic || response.contains("private")
            || HTTPCacheEntry.isHeuristicallyCacheable(entry.statusCode)
    }

    /// Whether a response to a request with credentials says every user may
    /// have it (RFC 9111 §3.5), so it goes to the shared partition.
    static func isSharedDespiteCredentials(_ response: CacheControl) -> Bool {
        !response.contains("private") && (response.isPublic || response.sharedMaxAge != nil || response.mustRevalidate)
    }

    /// Whether `stale-if-error` (RFC 5861 §4, in the response or the request)
    /// lets `entry` answer when the origin failed.
    static func allowsStaleIfError(_ entry: HTTPCacheEntry, request: URLRequest, now: Date) -> Bool {
        let staleness = -entry.timeToLive(at: now)
        guard let window = [entry.cacheControl.staleIfError, requestControl(request).staleIfError].compactMap({ $0 }).max()
        else { return false }
        return staleness <= TimeInterval(window)
    }

    /// Origin statuses that count as errors for `stale-if-error`.
    static func isServerError(_ status: Int) -> Bool { [500, 502, 503, 504].contains(status) }

    /// Methods that do not change the resource (RFC 9110 §9.2.1); any other
    /// method that succeeds invalidates what is stored (RFC 9111 §4.4).
    static func isSafe(_ method: String) -> Bool { ["GET", "HEAD", "OPTIONS", "TRACE"].contains(method) }

    /// Whether a client's own conditional request is satisfied by `entry`, so a
    /// 304 can answer it (RFC 9110 §13.1.2 weak comparison for `If-None-Match`).
    static func conditionMatches(_ request: URLRequest, entry: HTTPCacheEntry) -> Bool {
        if let tags = request.value(forHTTPHeaderField: "If-None-Match") {
            guard let etag = entry.headers["ETag"] else { return false }
            let stored = weak(etag)
            return tags.split(separator: ",").contains { tag in
                let tag = String(tag).trimmingSpaces()
                return tag == "*" || weak(tag) == stored
            }
        }
        if let since = request.value(forHTTPHeaderField: "If-Modified-Since").flatMap(HTTPDate.parse),
           let modified = entry.headers["Last-Modified"].flatMap(HTTPDate.parse) {
            return modified <= since
        }
        return false
    }

    /// Whether the request carries a condition of the client's own.
    static func isConditional(_ request: URLRequest) -> Bool {
        request.value(forHTTPHeaderField: "If-None-Match") != nil || request.value(forHTTPHeaderField: "If-Modified-Since") != nil
    }

    /// The single byte range `request` asks of a stored 200 with `length` bytes,
    /// when it can be answered with a 206 (RFC 9110 §14): one satisfiable
    /// `bytes=` range (`a-b`, `a-`, `-n`), and an `If-Range` (if any) that
    /// names the stored strong `ETag` or exact `Last-Modified`. Nil: answer
    /// the whole representation, which a server may always do instead.
    static func byteRange(_ request: URLRequest, entry: HTTPCacheEntry) -> Range<Int>? {
        guard let field = request.value(forHTTPHeaderField: "Range")?.trimmingSpaces(), entry.statusCode == 200,
              field.lowercased().hasPrefix("bytes="), !field.contains(","), !entry.body.isEmpty else { return nil }
        if let condition = request.value(forHTTPHeaderField: "If-Range")?.trimmingSpaces() {
            let matches = condition.hasPrefix("\"") ? entry.headers["ETag"] == condition : entry.headers["Last-Modified"] == condition
            guard matches else { return nil }
        }
        let length = entry.body.count
        let bounds = field.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty {
            guard let suffix = CacheControl.deltaSeconds(bounds[1]), suffix > 0 else { return nil }
            return max(0, length - suffix)..<length
        }
        guard let first = CacheControl.deltaSeconds(bounds[0]), first < length else { return nil }
        guard !bounds[1].isEmpty else { return first..<length }
        guard let last = CacheControl.deltaSeconds(bounds[1]), last >= first else { return nil }
        return first..<min(last + 1, length)
    }

    private static func weak(_ tag: String) -> String { tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }

    private static func validator(_ entry: HTTPCacheEntry) -> HTTPCacheEntry? { entry.hasValidators ? entry : nil }

    private static func hitStatus(_ entry: HTTPCacheEntry, now: Date) -> CacheStatus {
        CacheStatus(hit: true, timeToLive: Int(entry.timeToLive(at: now).rounded(.down)))
    }
}
