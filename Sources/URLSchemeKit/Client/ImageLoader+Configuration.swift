import Foundation
import ImageCodecs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ImageLoader {
    /// What an `ImageLoader` loads through and how much it may hold and run at once.
    public struct Configuration: Sendable {
        /// The memory budget used when none is given: 128 MiB of decoded pixels.
        public static let defaultMemoryCapacity = 128 << 20
        /// The animation budget used when none is given: 2²⁵ (33,554,432)
        /// pixels, composited (frames × canvas) and kept (frames × output),
        /// so an animation holds at most 128 MiB of frames, the default
        /// memory budget, and its compositing stays well under a second: a
        /// phone-sized feed's 480×480 GIF of 145 frames, or 1080×1080 of 28.
        /// Servers should send animations at the size they are shown (or as
        /// video); the decoders' own default, 2³⁰, is 4 GiB of frames.
        public static let defaultMaximumAnimationPixelCount = 1 << 25

        /// The session every load goes through (it decides which schemes load
        /// and which URL cache answers repeats).
        public var session: URLSession
        /// Where decoded images are kept (cost = pixel bytes, least recently
        /// used out). Give it the asset source's cache to share one budget.
        public var memoryCache: DecodedImageCache
        /// The most session tasks in flight at once; more urgent loads start first.
        public var maximumConcurrentLoads: Int
        /// The most decodes running at once.
        public var maximumConcurrentDecodes: Int
        /// The largest image (width × height of the file) the loader decodes;
        /// larger ones fail before any pixel memory is allocated.
        public var maximumPixelCount: Int
        /// The most frames an animation may hold (`animation(for:size:priority:)`),
        /// counted from the file before any is decoded.
        public var maximumFrameCount: Int
        /// The most pixels an animation may cost, checked before any frame is
        /// decoded: frames × canvas pixels composited, and again frames ×
        /// output pixels kept (so the frames held take at most 4 bytes ×
        /// this). Default `defaultMaximumAnimationPixelCount`, 2²⁵ (128 MiB
        /// of frames); over it, the load fails naming this limit.
        public var maximumAnimationPixelCount: Int

        /// A configuration; by default a session with every URLSchemeKit scheme
        /// installed, a new cache of 128 MiB of decoded images, 6 loads and one
        /// decode per processor at once, images up to the decoders' default of
        /// 64 megapixels, animations up to the decoders' 10,000 frames and
        /// `defaultMaximumAnimationPixelCount` pixels.
        public init(
            session: URLSession = Configuration.defaultSession,
            memoryCache: DecodedImageCache = DecodedImageCache(capacity: Configuration.defaultMemoryCapacity),
            maximumConcurrentLoads: Int = 6,
            maximumConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
            maximumPixelCount: Int = defaultMaximumPixelCount,
            maximumFrameCount: Int = ImageDecoder.Options.defaultMaximumFrameCount,
            maximumAnimationPixelCount: Int = Configuration.defaultMaximumAnimationPixelCount
        ) {
            self.session = session
            self.memoryCache = memoryCache
            self.maximumConcurrentLoads = maximumConcurrentLoads
            self.maximumConcurrentDecodes = maximumConcurrentDecodes
            self.maximumPixelCount = maximumPixelCount
            self.maximumFrameCount = maximumFrameCount
            self.maximumAnimationPixelCount = maximumAnimationPixelCount
        }

        /// The session loaders use unless given another: ephemeral, with
        /// `installURLSchemeKit()` (caching in `QueryKeyedURLCache.standard`).
        public static let defaultSession: URLSession = {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit()
            return URLSession(configuration: configuration)
        }()
    }

    /// Counts of what a loader has done, for tests and metrics.
    public struct Statistics: Equatable, Sendable {
        /// Session tasks started.
        public var sessionLoads = 0
        /// Requests that joined a load already in flight.
        public var joins = 0
        /// Shared loads stopped because their last waiter cancelled.
        public var cancellations = 0
        /// Requests answered from the memory cache.
        public var memoryHits = 0
        /// Bodies decoded.
        public var decodes = 0

        /// All zero.
        public init() {}
    }
}
