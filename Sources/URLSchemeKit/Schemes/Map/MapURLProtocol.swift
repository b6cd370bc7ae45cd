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
    /// A snapshot of a vector source is stored under a version that also names
    /// the source's archive and style, so replacing either draws it again.
    public override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        let map = try MapURL(url: requestURL)
        let work = try environment.work(for: map)
        guard let name = map.tiles, let source = environment.tileSources.vectorSource(named: name) else { return work }
        return RenderWork(version: work.version + " tiles=" + name + ":" + source.identity) { try work($0) }
    }
}
