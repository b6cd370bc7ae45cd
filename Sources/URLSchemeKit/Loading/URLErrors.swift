import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLError`s the protocols report: a code that fits, a
/// description a person can act on, and the failing URL in the user info.
public enum URLErrors {
    /// A `URLError` with `code`, `message` as its localized description and `url` as the failing URL.
    public static func make(_ code: URLError.Code, _ message: String, url: URL?, underlying: Error? = nil) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return URLError(code, userInfo: info)
    }

    /// Turns whatever a parser or renderer threw into the `URLError` the caller sees:
    /// a `URLParameterError` is `.badURL`, a `CancellationError` is `.cancelled`,
    /// a `URLError` keeps its code and description and gains the failing URL,
    /// anything else is `.unknown` with its description.
    public static func converting(_ error: Error, url: URL?) -> URLError {
        switch error {
        case let error as URLError:
            if error.userInfo[NSURLErrorFailingURLErrorKey] != nil { return error }
            return make(error.code, error.localizedDescription, url: url, underlying: error.userInfo[NSUnderlyingErrorKey] as? Error)
        case let error as URLParameterError:
            return make(.badURL, "bad URL \(url?.absoluteString ?? ""): \(error.description)", url: url, underlying: error)
        case is CancellationError:
            return make(.cancelled, "cancelled", url: url)
        default:
            return make(.unknown, "could not load \(url?.absoluteString ?? ""): \(error)", url: url, underlying: error)
        }
    }
}
