import Foundation

/// The options of `urlscheme serve` that belong to the server (the ones it
/// shares with `get`, `--tiles`, `--assets` and `--no-cache`, stay with the
/// tool): each from its flag, else its environment variable, else the
/// default of ``ServerConfiguration``.
///
/// | flag | variable | meaning |
/// |---|---|---|
/// | `--bind ADDR` | `URLSCHEME_BIND` | the address to listen on |
/// | `--port N` | `URLSCHEME_PORT` | the TCP port (0: any free one) |
/// | `--workers N` | `URLSCHEME_WORKERS` | scheme loads at once |
/// | `--queue N` | `URLSCHEME_QUEUE` | loads that may wait; past that, 503 |
/// | `--max-age S` | `URLSCHEME_MAX_AGE` | `Cache-Control: max-age` of answers |
/// | `--max-connections N` | `URLSCHEME_MAX_CONNECTIONS` | open connections at once |
/// | `--public-url URL` | `URLSCHEME_PUBLIC_URL` | the absolute URL TileJSON and styles name tiles by |
/// | `--trust-proxy` | `URLSCHEME_TRUST_PROXY=1` | believe `X-Forwarded-Proto`/`-Host` |
/// | `--leaflet DIR` | `URLSCHEME_LEAFLET` | Leaflet for the viewer at `/` (default: Debian's, when installed) |
/// | `--cors-origin ORIGIN` | `URLSCHEME_CORS_ORIGIN` | `Access-Control-Allow-Origin` of answers: `*` (default), one origin, or `none` |
/// | `--answer-cache MB` | `URLSCHEME_ANSWER_CACHE` | megabytes of finished answers kept in memory (0: none) |
/// | `--signing-key HEX[,HEX…]` | `URLSCHEME_SIGNING_KEY` | keys of signed URLs (hex, imgproxy's `IMGPROXY_KEY`) |
/// | `--signing-salt HEX[,HEX…]` | `URLSCHEME_SIGNING_SALT` | their salts, one per key |
public enum ServeOptions {
    /// The flags read here, each taking one value.
    public static let flags = ["--bind", "--port", "--workers", "--queue", "--max-age", "--max-connections", "--public-url", "--leaflet",
                                      "--cors-origin", "--answer-cache", "--signing-key", "--signing-salt"]
    /// Where Debian's `libjs-leaflet` puts Leaflet: the viewer's default when present.
    public static let debianLeaflet = "/usr/share/javascript/leaflet"
    /// The flags read here that take no value.
    public static let switches = ["--trust-proxy"]

    /// The configuration `arguments` (flag, value pairs of ``flags``) and
    /// `environment` ask for. Throws ``ServerError`` naming the flag or
    /// variable and the range it must be in.
    public static func configuration(arguments: [String], environment: [String: String]) throws -> ServerConfiguration {
        var given: [String: (value: String, source: String)] = [:]
        for flag in flags {
            let variable = "URLSCHEME_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
            if let value = environment[variable] { given[flag] = (value, variable) }
        }
        var trustProxy = environment["URLSCHEME_TRUST_PROXY"] == "1"
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            if switches.contains(flag) {
                trustProxy = true
                index += 1
                continue
            }
            guard flags.contains(flag) else { throw ServerError("unexpected option '\(flag)' for 'serve'") }
            guard index + 1 < arguments.count else { throw ServerError("\(flag) needs a value") }
            given[flag] = (arguments[index + 1], flag)
            index += 2
        }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let (text, source) = given[flag] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ServerError("\(source) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        var configuration = ServerConfiguration()
        if let (address, _) = given["--bind"] { configuration.bindAddress = address }
        if let port = try number("--port", 0...65535) { configuration.port = UInt16(port) }
        if let workers = try number("--workers", 1...1024) { configuration.workers = workers }
        if let queue = try number("--queue", 0...1_000_000) { configuration.queueLength = queue }
        if let maxAge = try number("--max-age", 0...31_536_000) { configuration.maxAge = maxAge }
        if let connections = try number("--max-connections", 1...65536) { configuration.maximumConnections = connections }
        if let megabytes = try number("--answer-cache", 0...65536) { configuration.answerCacheBytes = megabytes << 20 }
        if let (text, source) = given["--public-url"] {
            var url = text
            while url.hasSuffix("/") { url.removeLast() }
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil,
                  parsed.query == nil, parsed.fragment == nil else {
                throw ServerError("\(source) \(text): expected an http(s) URL such as https://maps.example or https://example.org/maps")
            }
            configuration.publicURL = url
        }
        configuration.trustsForwardedHeaders = trustProxy
        if let (text, source) = given["--cors-origin"] { configuration.allowedOrigin = try allowedOrigin(text, source: source) }
        switch (given["--signing-key"], given["--signing-salt"]) {
        case (nil, nil): break
        case let (key?, salt?):
            let keys = try URLSigning.hexList(key.value, source: key.source), salts = try URLSigning.hexList(salt.value, source: salt.source)
            guard keys.count == salts.count else {
                throw ServerError("\(key.source) has \(keys.count) keys but \(salt.source) \(salts.count) salts: give one salt per key")
            }
            configuration.signing = try URLSigning(keys: keys, salts: salts)
        case let (key?, nil): throw ServerError("\(key.source) needs --signing-salt (or URLSCHEME_SIGNING_SALT) too")
        case let (nil, salt?): throw ServerError("\(salt.source) needs --signing-key (or URLSCHEME_SIGNING_KEY) too")
        }
        if let (directory, source) = given["--leaflet"] {
            guard FileManager.default.fileExists(atPath: directory + "/leaflet.js") else {
                throw ServerError("\(source) \(directory): no leaflet.js there (Debian's libjs-leaflet puts it in \(debianLeaflet))")
            }
            configuration.leafletDirectory = directory
        } else if FileManager.default.fileExists(atPath: debianLeaflet + "/leaflet.js") {
            configuration.leafletDirectory = debianLeaflet
        }
        return configuration
    }

    /// The `Access-Control-Allow-Origin` value `text` asks for: `*`, nil for
    /// `none`, or an origin (`http(s)://host[:port]`, nothing after it).
    private static func allowedOrigin(_ text: String, source: String) throws -> String? {
        if text == "*" { return text }
        if text == "none" { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
              url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil else {
            throw ServerError("\(source) \(text): expected *, none, or an origin such as https://app.example (scheme, host and port only)")
        }
        return text
    }

    /// Starts `server`, says where it listens on standard error, and serves
    /// until SIGTERM or SIGINT; then drains (new connections refused,
    /// `/health` 503, requests in progress finished), flushes `accessLog`
    /// and exits 0. Exits 1 with the reason when the address cannot be used.
    public static func serve(_ server: SchemeServer, accessLog: AccessLogWriter? = nil) async -> Never {
        do {
            try server.start()
        } catch {
            FileHandle.standardError.write(Data("urlscheme: \(error)\n".utf8))
            exit(1)
        }
        let host = server.configuration.bindAddress.contains(":") ? "[\(server.configuration.bindAddress)]" : server.configuration.bindAddress
        FileHandle.standardError.write(Data("urlscheme: serving on http://\(host):\(server.port)\n".utf8))
        let queue = DispatchQueue(label: "URLSchemeServer.signals")
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)  // the dispatch source, not the default action, handles it
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                FileHandle.standardError.write(Data("urlscheme: draining\n".utf8))
                server.drain {
                    accessLog?.flush()
                    FileHandle.standardError.write(Data("urlscheme: stopped\n".utf8))
                    exit(0)
                }
            }
            source.resume()
            return source
        }
        // Waits for ever: the signal sources end the process.
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        withExtendedLifetime(sources) {}
        exit(0)
    }
}
