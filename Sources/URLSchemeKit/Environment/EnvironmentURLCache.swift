import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a session's protocols find its `URLSchemeKitEnvironment`: the
/// session's `urlCache`.
///
/// `installURLSchemeKit(_:)` sets the configuration's `urlCache` to one of
/// these, which holds the environment and passes every cache call on to the
/// environment's `imageCache` (or keeps nothing when it has none). A session
/// copies its configuration but shares the cache object, so each protocol
/// reads its task's session's `configuration.urlCache` in `startLoading()`
/// and finds the environment there. Nothing is registered anywhere, nothing
/// is sent to an origin, and the environment lives as long as the sessions
/// that use it.
final class EnvironmentURLCache: URLCache, @unchecked Sendable {
    // @unchecked Sendable: URLCache is declared @unchecked Sendable; this
    // subclass adds two immutable references to Sendable values.

    /// The environment of the sessions made from the configuration.
    let environment: URLSchemeKitEnvironment
    /// Where calls go: the environment's image cache, or nil (nothing is kept).
    private let backing: QueryKeyedURLCache?

    init(_ environment: URLSchemeKitEnvironment) {
        self.environment = environment
        backing = environment.imageCache
        // URLCache's own storage stays empty: every method that touches it is
        // overridden. An existing directory keeps it from making one under ~/.cache.
        let inert = environment.imageCache?.directory ?? FileManager.default.temporaryDirectory
        #if canImport(FoundationNetworking)
        super.init(memoryCapacity: 0, diskCapacity: 0, diskPath: inert.path)
        #else
        super.init(memoryCapacity: 0, diskCapacity: 0, directory: inert)
        #endif
    }

    /// The environment of `session` (whose configuration `installURLSchemeKit(_:)` set up), else `standard`.
    static func environment(of session: URLSession?) -> URLSchemeKitEnvironment {
        environment(in: session?.configuration) ?? .standard
    }

    /// The environment `configuration` carries, if any.
    static func environment(in configuration: URLSessionConfiguration?) -> URLSchemeKitEnvironment? {
        (configuration?.urlCache as? EnvironmentURLCache)?.environment
    }

    override var memoryCapacity: Int {
        get { backing?.memoryCapacity ?? 0 }
        set { backing?.memoryCapacity = newValue }
    }

    override var diskCapacity: Int {
        get { backing?.diskCapacity ?? 0 }
        set { backing?.diskCapacity = newValue }
    }

    override var currentMemoryUsage: Int { backing?.currentMemoryUsage ?? 0 }
    override var currentDiskUsage: Int { backing?.currentDiskUsage ?? 0 }

    override func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        backing?.cachedResponse(for: request)
    }

    override func getCachedResponse(for dataTask: URLSessionDataTask,
                                    completionHandler: @Sendable @escaping (CachedURLResponse?) -> Void) {
        guard let backing else { return completionHandler(nil) }
        backing.getCachedResponse(for: dataTask, completionHandler: completionHandler)
    }

    override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
        backing?.storeCachedResponse(cachedResponse, for: request)
    }

    override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for dataTask: URLSessionDataTask) {
        guard let request = dataTask.currentRequest else { return }
        backing?.storeCachedResponse(cachedResponse, for: request)
    }

    override func removeCachedResponse(for request: URLRequest) {
        backing?.removeCachedResponse(for: request)
    }

    override func removeAllCachedResponses() {
        backing?.removeAllCachedResponses()
    }

    override func removeCachedResponses(since date: Date) {
        backing?.removeCachedResponses(since: date)
    }
}
