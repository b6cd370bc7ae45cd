import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `map://` URLs with map snapshots (see `MapURL` for the parameters).
///
/// Register it through `URLSessionConfiguration.installURLSchemeKit()` or
/// `protocolClasses`; replace the drawing with `MapURLProtocol.renderer.renderer = …`.
public final class MapURLProtocol: SchemeURLProtocol {
    /// The renderer new `map://` loads use: the embedded basemap by default.
    public static let renderer = RendererSlot<MapURL>(MapSnapshotRenderer())

    /// `map`.
    public override class var schemes: Set<String> { [MapURL.scheme] }

    /// Parses the request's URL (strictly, options validated once here) and hands it to `renderer`.
    public override func makeRenderWork() throws -> RenderWork {
        try Self.renderer.work(for: MapURL(url: requestURL))
    }
}
