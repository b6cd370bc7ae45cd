import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub answers: a body, a file, a status, a redirect, an error or a
/// connection dropped mid-body, after an optional delay.
///
/// ```swift
/// recorder.stub(.get, "https://api.example/users/1", .json(#"{"id": 1}"#))
/// recorder.stub(.get, "https://api.example/slow", .error(URLError(.timedOut)).delayed(by: 0.2))
/// ```
public struct StubAnswer: Sendable {
    enum Kind: Sendable {
        case body(status: Int, headers: [String: String], Data)
        case file(URL, status: Int, headers: [String: String])
        case redirect(location: String, status: Int)
        case error(URLError)
        case drop(status: Int, headers: [String: String], Data, after: Int)
    }

    let kind: Kind
    /// Seconds before the answer is given.
    public private(set) var delay: TimeInterval = 0

    /// `data` with `status` and `headers`.
    public static func body(_ data: Data, status: Int = 200, headers: [String: String] = [:]) -> StubAnswer {
        StubAnswer(kind: .body(status: status, headers: headers, data))
    }

    /// UTF-8 `text` as `text/plain` (or `contentType`).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> StubAnswer {
        .body(Data(text.utf8), status: status, headers: ["Content-Type": contentType])
    }

    /// `json` (a JSON text) as `application/json`.
    public static func json(_ json: String, status: Int = 200) -> StubAnswer {
        .body(Data(json.utf8), status: status, headers: ["Content-Type": "application/json"])
    }

    /// The file at `url`, read when the stub answers (a missing file fails the load naming it).
    public static func file(_ url: URL, status: Int = 200, contentType: String = "application/octet-stream") -> StubAnswer {
        StubAnswer(kind: .file(url, status: status, headers: ["Content-Type": contentType]))
    }

    /// An empty body with `status`.
    public static func status(_ status: Int) -> StubAnswer { .body(Data(), status: status) }

    /// A redirect to `location` (absolute, or relative to the request), which
    /// the recorder follows itself, as a session would.
    public static func redirect(to location: String, status: Int = 302) -> StubAnswer {
        StubAnswer(kind: .redirect(location: location, status: status))
    }

    /// The load fails with `error` (`URLError(.timedOut)`, `.notConnectedToInternet` …).
    public static func error(_ error: URLError) -> StubAnswer { StubAnswer(kind: .error(error)) }

    /// The response and the first `bytes` bytes of `body`, then the connection
    /// drops (`URLError(.networkConnectionLost)`).
    public static func connectionDrop(after bytes: Int, of body: Data, status: Int = 200) -> StubAnswer {
        StubAnswer(kind: .drop(status: status, headers: ["Content-Length": String(body.count)], body, after: max(0, min(bytes, body.count))))
    }

    /// This answer, given `seconds` later.
    public func delayed(by seconds: TimeInterval) -> StubAnswer {
        var copy = self
        copy.delay = max(0, seconds)
        return copy
    }
}
