import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `map://` URLs with map snapshots (see ``MapURL`` for the parameters),
/// drawn by the environment's renderer for ``MapURL`` (``MapSnapshotRenderer``
/// unless replaced with ``SchemeRenderers/set(_:)``).
public final class MapURLProtocol: SchemeURLProtocol {
    /// `map`.
    public override class var schemes: Set<String> { [MapURL.scheme] }

    /// Parses the request's URL (strictly, options validated once here) and hands it to the environment's renderer.
    public override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: MapURL(url: requestURL))
    }
}
