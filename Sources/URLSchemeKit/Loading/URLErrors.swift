import Foundation
import MapRendering
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLError`s the protocols report: a code that fits, a
/// description a person can act on, and the failing URL in the user info.
package enum URLErrors {
    /// A `URLError` with `code`, `message` as its localized description and `url` as the failing URL.
    package static func make(_ code: URLError.Code, _ message: String, url: URL?, underlying: Error? = nil) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return URLError(code, userInfo: info)
    }

    /// Turns whatever a parser or renderer threw into the `URLError` the caller
    /// sees, the one place where that happens for every scheme:
    /// - a `URLError` keeps its code and description and gains the failing URL;
    /// - a `URLParameterError`, a `MapOptionError` (a view over the budget) and
    ///   an `AssetStoreError.invalidID` are `.badURL` naming the parameter;
    /// - `AssetStoreError.notFound` is `.fileDoesNotExist`; a damaged or
    ///   unreadable stored file and an `AssetDecodingError` are `.cannotDecodeContentData`;
    /// - a `MapTileError` is `.resourceUnavailable` naming the tile;
    /// - an `ImageBodyError` (a loaded body that is not an image the loader
    ///   decodes) is `.cannotDecodeContentData`;
    /// - an `AuthenticationChallengeError` (a 401 Linux cannot complete) is
    ///   `.userAuthenticationRequired` naming the challenge;
    /// - a `VectorTileError` (an archive or vector tile that cannot be read or
    ///   is over its limits) and a `VectorStyleError` are `.cannotDecodeContentData`;
    /// - a `CancellationError` is `.cancelled`;
    /// - anything else is `.unknown` with its description.
    package static func converting(_ error: Error, url: URL?) -> URLError {
        switch error {
        case let error as URLError:
            if error.userInfo[NSURLErrorFailingURLErrorKey] != nil { return error }
            return make(error.code, error.localizedDescription, url: url, underlying: error.userInfo[NSUnderlyingErrorKey] as? Error)
        case let error as URLParameterError:
            return make(.badURL, "bad URL \(url?.absoluteString ?? ""): \(error.description)", url: url, underlying: error)
        case let error as MapOptionError:
            return converting(URLParameterError(parameter: error.option, reason: error.reason), url: url)
        case let error as AssetStoreError:
            switch error {
            case .notFound:
                return make(.fileDoesNotExist, error.description, url: url, underlying: error)
            case .invalidID:
                return converting(URLParameterError(parameter: "id", reason: error.description), url: url)
            case .corrupt, .unreadableImage:
                return make(.cannotDecodeContentData, error.description, url: url, underlying: error)
            }
        case let error as AssetDecodingError:
            return make(.cannotDecodeContentData, error.description, url: url, underlying: error.underlying)
        case let error as MapTileError:
            return make(.resourceUnavailable, error.description, url: url, underlying: error)
        case let error as ImageBodyError:
            return make(.cannotDecodeContentData, error.description, url: url, underlying: error.underlying)
        case let error as AuthenticationChallengeError:
            return make(.userAuthenticationRequired, error.description, url: url)
        case let error as VectorTileError:
            return make(.cannotDecodeContentData, error.description, url: url, underlying: error)
        case let error as VectorStyleError:
            return make(.cannotDecodeContentData, "the map style: \(error.description)", url: url, underlying: error)
        case is CancellationError:
            return make(.cancelled, "cancelled", url: url)
        default:
            return make(.unknown, "could not load \(url?.absoluteString ?? ""): \(error)", url: url, underlying: error)
        }
    }
}

/// A `401` whose `WWW-Authenticate` challenge Linux's URLSession would try to
/// answer and never complete (see `HTTPCacheURLProtocol.deliverable(_:)`).
struct AuthenticationChallengeError: Error, CustomStringConvertible {
    let url: URL?
    let challenge: String

    var description: String {
        "\(url?.absoluteString ?? "the origin") answered 401 asking for credentials (WWW-Authenticate: \(challenge)); send them in an Authorization header "
            + "(Linux's URLSession never completes a load that reports this challenge)"
    }
}
