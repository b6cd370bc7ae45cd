import Foundation
import MapRendering
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything the URLSchemeKit protocols read beyond the request, for the
/// sessions of one configuration: where photos come from, how much one load
/// may cost, which tile sources `map://` may name, where renders run, which
/// renderer draws each scheme, and where answers are cached: an
/// ``AssetImageSource``, a ``ResourceBudget``, ``MapTileSources``, a
/// ``RenderQueue``, ``SchemeRenderers``, a ``QueryKeyedURLCache`` and an
/// ``HTTPCache``.
///
/// Nothing of it is process-wide: two sessions with two environments serve
/// two tenants side by side, and a test builds the environment it needs.
///
/// ```swift
/// let tenant = try URLSchemeKitEnvironment { environment in
///     environment.assets = AssetImageSource(store: try FileAssetStore(directory: photos))
///     environment.cachePartition = "tenant-42"
/// }
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.installURLSchemeKit(tenant)
/// let session = URLSession(configuration: configuration)
/// ```
///
/// Each part is named where it is set (``Configuration``), in any order;
/// the initialiser taking every part as a defaulted argument stays, for
/// code written before it.
///
/// An environment is immutable; make another to change it (from its
/// ``configuration``). Each protocol
/// finds its session's environment when a load starts, through the
/// session's `urlCache` (see `URLSessionConfiguration.installURLSchemeKit(_:)`).
public final class URLSchemeKitEnvironment: Sendable {
    /// The photos `asset://` and `avatar://` read; nil: those loads fail with
    /// `URLError(.resourceUnavailable)` saying so.
    public let assets: AssetImageSource?
    /// The most one load may cost; checked when a render is planned.
    public let budget: ResourceBudget
    /// The tile sources `map://` URLs may name with `tiles=`.
    public let tileSources: MapTileSources
    /// Where renders run.
    public let renderQueue: RenderQueue
    /// Where rendered answers are kept (and found again); nil: nothing is kept.
    public let imageCache: QueryKeyedURLCache?
    /// The HTTP cache `http(s)` loads go through; nil: they go to the platform's loader, uncached.
    public let httpCache: HTTPCache?
    /// The renderer of each scheme, the built-in ones and an app's own.
    public let renderers: SchemeRenderers
    /// Names this environment's answers in `imageCache`: a lookup sees only
    /// answers stored under the same partition, so `asset://?id=7` drawn from
    /// one tenant's store never answers another's.
    public let cachePartition: String
    /// What `format=auto` picks for a request without an `Accept` field: true:
    /// WebP, false: the scheme's own format (``Configuration/autoFormatPrefersWebP``).
    public let autoFormatPrefersWebP: Bool
    /// The renderer version each protocol class found for each scheme, so a
    /// memory hit needs no parse (``SchemeURLProtocol/startLoading()``).
    let renderVersions = Mutex<[String: String]>([:])
    /// What a harness in this package hangs on the environment, such as
    /// URLSchemeKitTesting's recorder: opaque here, and per environment, so
    /// two tests' sessions never share it (nil for every environment made
    /// through the public initialisers).
    package private(set) var attachment: (any Sendable)? {
        get { attachmentBox.withLock { $0 } }
        set { attachmentBox.withLock { $0 = newValue } }
    }
    private let attachmentBox = Mutex<(any Sendable)?>(nil)

    /// An environment of every part given in this order (prefer
    /// `URLSchemeKitEnvironment(configuration)` or the closure form, which name each part
    /// where it is set). `cachePartition` nil: `"shared"` when the answers depend
    /// on nothing but the URL (no asset store, no tile sources, only the
    /// built-in renderers), so every such environment shares them; otherwise a
    /// name new to this process, so nothing is shared by accident (give a
    /// stable name, such as the tenant's, to find disk entries again after a restart).
    public init(assets: AssetImageSource? = nil, budget: ResourceBudget = ResourceBudget(),
                tileSources: MapTileSources = MapTileSources(), renderQueue: RenderQueue = .shared,
                imageCache: QueryKeyedURLCache? = .standard, httpCache: HTTPCache? = .standard,
                renderers: SchemeRenderers = SchemeRenderers(), cachePartition: String? = nil, autoFormatPrefersWebP: Bool = false) {
        self.autoFormatPrefersWebP = autoFormatPrefersWebP
        self.assets = assets
        self.budget = budget
        self.tileSources = tileSources
        self.renderQueue = renderQueue
        self.imageCache = imageCache
        self.httpCache = httpCache
        self.renderers = renderers
        let dependsOnURLOnly = assets == nil && tileSources.isEmpty && renderers.isBuiltIn
        self.cachePartition = cachePartition ?? (dependsOnURLOnly ? "shared" : "p-" + UUID().uuidString.lowercased())
    }

    /// A copy of this environment (same parts and partition) carrying `attachment`.
    package func attaching(_ attachment: any Sendable) -> URLSchemeKitEnvironment {
        let copy = URLSchemeKitEnvironment(configuration)
        copy.attachment = attachment
        return copy
    }

    /// The environment a session's configuration carries
    /// (`installURLSchemeKit(_:)`), nil when it carries none.
    package static func of(_ configuration: URLSessionConfiguration?) -> URLSchemeKitEnvironment? {
        EnvironmentURLCache.environment(in: configuration)
    }

    /// The environment of a session set up with `installURLSchemeKit()`, and of
    /// a protocol driven without a session: no asset store, the default budget,
    /// no tile sources, ``QueryKeyedURLCache/standard`` and ``HTTPCache/standard``.
    /// It serves `map://` and `poll://` as they are.
    public static let standard = URLSchemeKitEnvironment()

    /// Removes asset `id` from the store, and every answer drawn from it:
    /// its decoded photo, and the cached `asset://` and `avatar://` answers
    /// naming it in `imageCache` (memory and disk, every partition: ids are
    /// random, so another store's asset never shares one). A removed avatar
    /// member is drawn as a grey tile from then on.
    /// Throws what the store throws (``AssetStoreError/notFound(_:)`` for an unknown id).
    public func removeAsset(_ id: String) throws {
        guard let assets else {
            throw URLErrors.make(.resourceUnavailable, UnconfiguredAssetStore.message, url: nil)
        }
        try assets.store.remove(id)
        assets.cache.removePhoto(id)
        imageCache?.removeCachedResponses(whereKey: { key in Self.key(key, namesAsset: id) })
    }

    /// Whether `key` is a stored `asset://` or `avatar://` answer drawn from asset `id`.
    static func key(_ key: CacheKey, namesAsset id: String) -> Bool {
        let text = key.rawValue
        guard text.hasPrefix(AssetURL.scheme + ":") || text.hasPrefix(AvatarURL.scheme + ":"),
              let url = URL(string: String(text.prefix { $0 != "#" })),
              let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return false }
        return items.contains { $0.name == "id" && $0.value == id }
    }

    /// The work that renders `request` with this environment's renderer for its type.
    /// Throws `URLError(.unsupportedURL)` when the environment has none.
    public func work<Request: Sendable>(for request: Request) throws -> RenderWork {
        try renderers.work(for: request)
    }
}
