import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSchemeKitEnvironment {
    /// What an environment is made of, each part named where it is set, so a
    /// call site reads as a list of the parts that differ from the defaults
    /// (and their order never matters):
    ///
    /// ```swift
    /// let tenant = try URLSchemeKitEnvironment { environment in
    ///     environment.assets = AssetImageSource(store: try FileAssetStore(directory: photos))
    ///     environment.cachePartition = "tenant-42"
    /// }
    /// ```
    ///
    /// A value: make one, change it, give it to `URLSchemeKitEnvironment(configuration)`;
    /// ``URLSchemeKitEnvironment/configuration`` gives an environment's back,
    /// to make another that differs in one part (as Nuke's
    /// `ImagePipeline.Configuration`).
    public struct Configuration: Sendable {
        /// The photos `asset://` and `avatar://` read; nil (the default): those
        /// loads fail with `URLError(.resourceUnavailable)` saying so.
        public var assets: AssetImageSource?
        /// The most one load may cost (default: ``ResourceBudget/init()``).
        public var budget = ResourceBudget()
        /// The tile sources `map://` URLs may name with `tiles=` (default: none).
        public var tileSources = MapTileSources()
        /// Where renders run (default: ``RenderQueue/shared``).
        public var renderQueue: RenderQueue = .shared
        /// Where rendered answers are kept; nil: nothing is kept
        /// (default: ``QueryKeyedURLCache/standard``, under `~/.cache`).
        public var imageCache: QueryKeyedURLCache? = .standard
        /// The HTTP cache `http(s)` loads go through; nil: the platform's
        /// loader, uncached (default: ``HTTPCache/standard``).
        public var httpCache: HTTPCache? = .standard
        /// The renderer of each scheme (default: the built-in ones).
        public var renderers = SchemeRenderers()
        /// The name of the environment's answers in `imageCache`; nil (the
        /// default): see ``URLSchemeKitEnvironment/cachePartition``.
        public var cachePartition: String?
        /// What `format=auto` picks for a request without an `Accept` field:
        /// true: WebP; false (the default): the scheme's own format (JPEG or PNG).
        /// A request's `Accept` field, when it has one, decides instead.
        public var autoFormatPrefersWebP = false

        /// The defaults: no asset store, no tile sources, the built-in
        /// renderers, the standard caches and budget.
        public init() {}
    }

    /// An environment of `configuration`'s parts.
    public convenience init(_ configuration: Configuration) {
        self.init(assets: configuration.assets, budget: configuration.budget, tileSources: configuration.tileSources,
                  renderQueue: configuration.renderQueue, imageCache: configuration.imageCache, httpCache: configuration.httpCache,
                  renderers: configuration.renderers, cachePartition: configuration.cachePartition,
                  autoFormatPrefersWebP: configuration.autoFormatPrefersWebP)
    }

    /// An environment of the defaults as `configure` changes them:
    /// `URLSchemeKitEnvironment { $0.imageCache = nil; $0.httpCache = nil }`.
    public convenience init(_ configure: (inout Configuration) throws -> Void) rethrows {
        var configuration = Configuration()
        try configure(&configuration)
        self.init(configuration)
    }

    /// This environment's parts (its ``cachePartition`` as resolved), for an
    /// environment that differs in one: `var c = env.configuration; c.budget = …`.
    public var configuration: Configuration {
        var configuration = Configuration()
        configuration.assets = assets
        configuration.budget = budget
        configuration.tileSources = tileSources
        configuration.renderQueue = renderQueue
        configuration.imageCache = imageCache
        configuration.httpCache = httpCache
        configuration.renderers = renderers
        configuration.cachePartition = cachePartition
        configuration.autoFormatPrefersWebP = autoFormatPrefersWebP
        return configuration
    }
}
