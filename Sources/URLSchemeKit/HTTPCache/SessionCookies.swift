import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie handling of the user's session, which the HTTP cache does itself.
///
/// A session hands cookies to the protocol that loads the request: its own HTTP
/// protocol stores what an origin sets, and on Apple platforms it also adds the
/// `Cookie` header. Forwarding goes through the cache's inner session, shared
/// by every session that uses one `HTTPCache`; with that session's own cookie
/// jar, one user's cookies went out with every other session's requests and
/// never reached the user's storage. So the inner session handles no cookies,
/// and the forwarder uses this: the outer session's storage and settings.
package struct SessionCookies: Sendable {
    /// The session's storage (`HTTPCookieStorage` is thread-safe).
    let storage: HTTPCookieStorage
    /// `httpShouldSetCookies`: whether requests carry the stored cookies.
    let sends: Bool
    /// Whether what origins set is stored (`httpCookieAcceptPolicy` is not `.never`).
    let accepts: Bool

    /// The settings of `configuration`; nil when it has no cookie storage.
    package init?(_ configuration: URLSessionConfiguration?) {
        guard let configuration, let storage = configuration.httpCookieStorage else { return nil }
        self.storage = storage
        sends = configuration.httpShouldSetCookies
        accepts = configuration.httpCookieAcceptPolicy != .never
    }

    /// Adds the stored cookies for the request's URL, unless the request has a
    /// `Cookie` header already (Linux's session adds it when the task is made)
    /// or asks not to handle cookies.
    func addCookies(to request: inout URLRequest) {
        guard sends, request.httpShouldHandleCookies, request.value(forHTTPHeaderField: "Cookie") == nil,
              let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return }
        for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) { request.setValue(value, forHTTPHeaderField: name) }
    }

    /// Stores the cookies `response` sets for `url` (a redirect's or the final answer's).
    func store(from response: HTTPURLResponse, for url: URL?, mainDocumentURL: URL?) {
        guard accepts, let url = response.url ?? url else { return }
        var fields: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields { fields[name] = value }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: mainDocumentURL)
    }
}
