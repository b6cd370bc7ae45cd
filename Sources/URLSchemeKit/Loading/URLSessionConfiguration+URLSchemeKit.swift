import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL protocols this package provides, in the order sessions try them.
/// Each scheme issue adds its class here (`MapURLProtocol`, `AssetURLProtocol`, …).
public enum URLSchemeKitProtocols {
    /// Every scheme protocol class, registered by `installURLSchemeKit(cache:)`.
    public static let all: [AnyClass] = [MapURLProtocol.self]
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
