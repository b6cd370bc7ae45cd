/// Where a browser reaches this server: the `scheme://host[:port][/prefix]`
/// that absolute URLs in TileJSON and styles start with.
///
/// - With ``ServerConfiguration/publicURL`` (`--public-url`), always that.
/// - Else, with ``ServerConfiguration/trustsForwardedHeaders``
///   (`--trust-proxy`), the proxy's `X-Forwarded-Proto` (`http` or `https`)
///   and `X-Forwarded-Host`, where given.
/// - Else `http://` and the request's `Host`.
///
/// Forwarded headers are ignored unless trusted: any client can send them,
/// and a cache in front keyed by URI would hand one client's host to the
/// next (cache poisoning). A `Host` or forwarded host that is not a host
/// name or address with an optional port is not used (the bind address and
/// port are, instead), so no header text reaches a URL unchecked.
struct PublicBaseURL {
    let configuration: ServerConfiguration
    /// The port listened on (the configuration's may be 0).
    let port: UInt16

    /// The base for `request`, without a trailing `/`.
    func base(for request: HTTPRequest) -> String {
        if let publicURL = configuration.publicURL { return publicURL }
        var scheme = "http"
        var host = request.header("Host").flatMap(Self.checkedHost)
        if configuration.trustsForwardedHeaders {
            if let proto = Self.firstValue(request.header("X-Forwarded-Proto"))?.lowercased(), proto == "http" || proto == "https" {
                scheme = proto
            }
            if let forwarded = Self.firstValue(request.header("X-Forwarded-Host")).flatMap(Self.checkedHost) { host = forwarded }
        }
        let fallback = configuration.bindAddress.contains(":") ? "[\(configuration.bindAddress)]:\(port)" : "\(configuration.bindAddress):\(port)"
        return "\(scheme)://\(host ?? fallback)"
    }

    /// Whether answers built from the base vary with request headers (no `--public-url`): their `Vary`.
    var varyingHeaders: String? {
        guard configuration.publicURL == nil else { return nil }
        return configuration.trustsForwardedHeaders ? "Host, X-Forwarded-Host, X-Forwarded-Proto" : "Host"
    }

    /// The first of a comma-separated list (a chain of proxies adds theirs after the first's).
    private static func firstValue(_ value: String?) -> String? {
        guard let first = value?.split(separator: ",").first?.trimmingCharacters(in: [" ", "\t"]), !first.isEmpty else { return nil }
        return first
    }

    /// `value` when it is `name[:port]` or `[v6][:port]` in the characters a host may have, at most 255 of them.
    static func checkedHost(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 255 else { return nil }
        let allowed = value.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]_".unicodeScalars.contains($0))
        }
        return allowed ? value : nil
    }
}
