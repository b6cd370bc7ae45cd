import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a redirect leads to, as the HTTP cache sends it (through its
/// inner session) or follows it (through a stored redirect): the same fields,
/// except that credentials meant for one origin never reach another. The
/// platform copies every field of the first request, `Authorization` and
/// `Cookie` included, whatever host the `Location` names.
enum RedirectedRequest {
    /// `request` sent again to `url`: on another origin (scheme, host, port)
    /// without `Authorization`; with the session's cookies for `url` in place
    /// of the old URL's when the session sends cookies (else, on another origin,
    /// with none).
    static func next(after request: URLRequest, to url: URL, cookies: SessionCookies?) -> URLRequest {
        var next = request
        next.url = url
        let sameOrigin = request.url.map { Origin($0) == Origin(url) } ?? false
        if !sameOrigin { next.setValue(nil, forHTTPHeaderField: "Authorization") }
        if let cookies, cookies.sends, next.httpShouldHandleCookies {
            next.setValue(nil, forHTTPHeaderField: "Cookie")
            cookies.addCookies(to: &next)
        } else if !sameOrigin {
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }

    /// Where a stored redirect leads: its `Location` against its URL; nil for
    /// any other answer (a 304 is no redirect, and a 300 names no one target).
    static func target(of entry: HTTPCacheEntry) -> URL? {
        guard [301, 302, 303, 307, 308].contains(entry.statusCode), let location = entry.headers["Location"],
              let target = URL(string: location, relativeTo: entry.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return target
    }
}

/// An origin (RFC 6454): scheme, host and port, the default port spelt out.
struct Origin: Hashable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    }

    var description: String { "\(scheme)://\(host):\(port)" }
}
