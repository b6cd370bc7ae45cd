import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL protocols this package provides, in the order sessions try them.
/// and where the app configures what they read.
public enum URLSchemeKitProtocols {
    /// Every scheme protocol class, registered by `installURLSchemeKit(cache:)`.
    public static let all: [AnyClass] = [MapURLProtocol.self, AssetURLProtocol.self, AvatarURLProtocol.self]

    /// Makes `asset://` and `avatar://` read photos from `store`, through one
    /// shared cache of decoded photos holding up to `decodedCapacity` bytes.
    /// Returns the source both renderers now use (its `cache.statistics` say
    /// how often photos were decoded).
    @discardableResult
    public static func useAssetStore(_ store: any AssetStore, decodedCapacity: Int = 256 << 20) -> AssetImageSource {
        let source = AssetImageSource(store: store, cache: DecodedImageCache(capacity: decodedCapacity))
        AssetURLProtocol.renderer.renderer = AssetRenderer(source: source)
        AvatarURLProtocol.renderer.renderer = AvatarRenderer(source: source)
        return source
    }
}

extension URLSessionConfiguration {
    /// Registers every URLSchemeKit protocol (ahead of the built-in ones) and
    /// sets `cache` as the session's `urlCache`: all a session needs to load
    /// the package's schemes and answer repeat loads from the cache.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.installURLSchemeKit()
    /// let session = URLSession(configuration: configuration)
    /// ```
    public func installURLSchemeKit(cache: ImageURLCache = .standard) {
        let existing = protocolClasses ?? []
        let ours = URLSchemeKitProtocols.all
        protocolClasses = ours + existing.filter { candidate in !ours.contains { $0 == candidate } }
        urlCache = cache
    }
}
