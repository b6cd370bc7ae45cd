import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `avatar://` URLs with chat avatars composed from participants'
/// photos in the asset store (see `AvatarURL`). Configure the store with
/// `URLSchemeKitProtocols.useAssetStore(_:)`, shared with `asset://`.
public final class AvatarURLProtocol: SchemeURLProtocol {
    /// The renderer new `avatar://` loads use.
    public static let renderer = RendererSlot<AvatarURL>(AvatarRenderer(store: UnconfiguredAssetStore()))

    public override class var schemes: Set<String> { [AvatarURL.scheme] }

    public override func makeRenderWork() throws -> RenderWork {
        try Self.renderer.work(for: AvatarURL(url: requestURL))
    }
}
