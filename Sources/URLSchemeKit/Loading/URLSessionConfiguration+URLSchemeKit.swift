import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL protocols this package provides, in the order sessions try them.
enum URLSchemeKitProtocols {
    /// Every scheme protocol class, registered by `installURLSchemeKit(_:)`.
    static let all: [AnyClass] = [MapURLProtocol.self, AssetURLProtocol.self, AvatarURLProtocol.self, PollURLProtocol.self]
}

extension URLSessionConfiguration {
    /// Registers every URLSchemeKit protocol (ahead of the built-in ones, and
    /// `extraProtocols`, an app's own schemes, ahead of those) and makes
    /// `environment` the one its sessions' loads read: its asset store,
    /// budget, tile sources, renderers and caches. Unless the environment's
    /// `httpCache` is nil, every `http(s)` load goes through
    /// `HTTPCacheURLProtocol` and that cache.
    ///
    /// The environment travels as the configuration's `urlCache` (which
    /// answers from the environment's `imageCache`): set no other `urlCache`
    /// afterwards, or the sessions fall back to `URLSchemeKitEnvironment.standard`.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.installURLSchemeKit()
    /// let session = URLSession(configuration: configuration)
    /// ```
    public func installURLSchemeKit(_ environment: URLSchemeKitEnvironment = .standard, extraProtocols: [AnyClass] = []) {
        var ours = extraProtocols + URLSchemeKitProtocols.all
        if environment.httpCache != nil { ours.append(HTTPCacheURLProtocol.self) }
        // Filtered, so installing again (or without an HTTP cache) leaves one of each, or none.
        let existing = (protocolClasses ?? []).filter { $0 != HTTPCacheURLProtocol.self }
        protocolClasses = ours + existing.filter { candidate in !ours.contains { $0 == candidate } }
        urlCache = EnvironmentURLCache(environment)
    }
}
