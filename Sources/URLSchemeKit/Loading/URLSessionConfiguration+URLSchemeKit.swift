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
    /// Registers every URLSchemeKit protocol (ahead of the built-in ones), sets
    /// `cache` as the session's `urlCache`, and, unless `httpCache` is nil,
    /// sends every `http(s)` load through `HTTPCacheURLProtocol` and that cache:
    /// all a session needs to load the package's schemes, answer repeat loads
    /// from the cache, and keep pages seen once working offline.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.installURLSchemeKit()
    /// let session = URLSession(configuration: configuration)
    /// ```
    ///
    /// The HTTP cache is named through a private entry in
    /// `httpAdditionalHeaders` (the one field a session copies that can carry
    /// it); `HTTPCacheURLProtocol` removes it before anything is sent.
    public func installURLSchemeKit(cache: ImageURLCache = .standard, httpCache: HTTPCache? = .standard) {
        var ours = URLSchemeKitProtocols.all
        if let httpCache {
            ours.append(HTTPCacheURLProtocol.self)
            httpCache.install(in: self)
        } else {
            HTTPCache.uninstall(from: self)
        }
        // Filtered, so installing again (or with httpCache: nil) leaves one of each, or none.
        let existing = (protocolClasses ?? []).filter { $0 != HTTPCacheURLProtocol.self }
        protocolClasses = ours + existing.filter { candidate in !ours.contains { $0 == candidate } }
        urlCache = cache
    }
}
