import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `asset://` URLs with stored photos, edited as the URL says (see
/// ``AssetURL`` for the parameters), from the store of the session's environment:
/// ```swift
/// let environment = URLSchemeKitEnvironment(assets: AssetImageSource(store: try FileAssetStore(directory: photos)))
/// configuration.installURLSchemeKit(environment)
/// ```
/// In an environment without a store every `asset://` load fails with
/// `URLError(.resourceUnavailable)` saying so.
public final class AssetURLProtocol: SchemeURLProtocol {
    public override class var schemes: Set<String> { [AssetURL.scheme] }

    public override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: AssetURL(url: requestURL))
    }
}
