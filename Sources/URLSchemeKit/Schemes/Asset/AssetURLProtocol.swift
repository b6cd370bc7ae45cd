import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `asset://` URLs with stored photos, edited as the URL says (see
/// `AssetURL` for the parameters).
///
/// Point it at a store once, before loading (`avatar://` then shares it):
/// ```swift
/// URLSchemeKitProtocols.useAssetStore(try FileAssetStore(directory: photos))
/// ```
/// Until then every `asset://` load fails with `URLError(.resourceUnavailable)`
/// saying so.
public final class AssetURLProtocol: SchemeURLProtocol {
    /// The renderer new `asset://` loads use.
    public static let renderer = RendererSlot<AssetURL>(AssetRenderer(store: UnconfiguredAssetStore()))

    public override class var schemes: Set<String> { [AssetURL.scheme] }

    public override func makeRenderWork() throws -> RenderWork {
        try Self.renderer.work(for: AssetURL(url: requestURL))
    }
}
