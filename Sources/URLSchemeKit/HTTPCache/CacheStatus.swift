/// What the cache did for one answer, written as this cache's member of the
/// `Cache-Status` header (RFC 9211), e.g. `URLSchemeKit; hit; ttl=3599` or
/// `URLSchemeKit; fwd=stale; fwd-status=304`.
struct CacheStatus: Equatable, Sendable {
    /// The identifier this cache uses in `Cache-Status`.
    static let cacheName = "URLSchemeKit"

    /// RFC 9211's `fwd` reasons this cache gives.
    enum Forward: String, Sendable {
        /// The request was not cacheable (an unsafe method).
        case bypass
        /// Nothing was stored for the URL.
        case uriMiss = "uri-miss"
        /// Something was stored for the URL, but not for these request headers (`Vary`).
        case varyMiss = "vary-miss"
        /// The request asked for a fresh answer (a reload, or `no-cache`).
        case request
        /// A response was stored but could not be used without asking the origin.
        case stale
    }

    /// Answered from the store without going to the origin.
    var hit = false
    var forward: Forward?
    /// The status of the origin's answer, when the request was forwarded and answered.
    var forwardStatus: Int?
    /// Remaining freshness in seconds; negative when a stale response was served.
    var timeToLive: Int?
    /// The origin's answer was stored.
    var stored = false
    /// Extra detail: `offline`, `stale-if-error`, `stale-while-revalidate`, `no-store`.
    var detail: String?

    var headerValue: String {
        var parts = [Self.cacheName]
        if hit { parts.append("hit") }
        if let forward { parts.append("fwd=" + forward.rawValue) }
        if let forwardStatus { parts.append("fwd-status=\(forwardStatus)") }
        if let timeToLive { parts.append("ttl=\(timeToLive)") }
        if stored { parts.append("stored") }
        if let detail { parts.append("detail=" + detail) }
        return parts.joined(separator: "; ")
    }

    /// `existing` (an upstream cache's entries, nearer the origin) followed by this cache's.
    func appended(to existing: String?) -> String {
        guard let existing, !existing.trimmingSpaces().isEmpty else { return headerValue }
        return existing + ", " + headerValue
    }
}
