import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Raster

/// Decoded asset photos kept in memory, so that many sizes and edits of one
/// photo decode it once: the decode is the expensive step of an `asset://`
/// load (tens of milliseconds for a camera JPEG), the edits after it are cheap.
///
/// - Bounded by bytes (4 per pixel), least recently used evicted first.
/// - One entry per photo. A JPEG may be held at a reduced scale (1/2, 1/4,
///   1/8) when only thumbnails were asked for; a request needing more detail
///   decodes again at the finer scale and replaces the entry, and any request
///   the held resolution satisfies is served from it.
/// - Concurrent requests for one photo wait for a single decode instead of
///   each decoding it, and share its failure too: a photo that does not
///   decode, asked for by N requests at once, is decoded once, not N times
///   in turn. A waiter that is cancelled (or runs out of time) stops waiting.
/// - An `ImageLoader` keeps its decoded images and animations here too (by
///   canonical URL and size; an animation costs all its frames), so that giving the loader the asset source's cache puts every
///   decoded image of the process under one byte budget.
public final class DecodedImageCache: @unchecked Sendable {  // every stored property is guarded by `condition`
    /// A decoded photo: upright pixels and the reduction they were decoded at.
    public struct Image: Sendable {
        /// The photo turned upright (EXIF orientation applied).
        public var bitmap: Bitmap
        /// 1 for full size, 2, 4 or 8 for a scaled JPEG decode.
        public var reduction: Int
    }

    /// What the cache has done for asset photos since it was made (an
    /// `ImageLoader` counts its own hits in `ImageLoader.statistics`).
    public struct Statistics: Equatable, Sendable {
        /// Requests answered from memory.
        public var hits = 0
        /// Requests that decoded the source.
        public var decodes = 0
    }

    /// Photos by asset id and frame (0 for a still photo, or an
    /// animation's first frame); loader images by canonical URL and size.
    private enum Key: Hashable {
        case photo(String, frame: Int)
        case loaded(ImageLoadKey)
    }

    private enum Entry {
        case photo(Image)
        case loaded(LoadedImage)
        case animation(LoadedAnimation)
    }

    /// One decode in progress; waiters read its outcome (under `condition`).
    private final class Decode {
        var outcome: Result<Image, Error>?
    }

    private let condition = NSCondition()
    private var store: LRUStore<Key, Entry>
    private var decoding: [Key: Decode] = [:]
    private var counters = Statistics()

    /// A cache holding at most `capacity` bytes of pixels (256 MiB by default).
    public init(capacity: Int = 256 << 20) {
        store = LRUStore(capacity: capacity)
    }

    /// Counts of hits and decodes so far.
    public var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    /// Bytes of pixels held.
    public var totalBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return store.totalCost
    }

    /// Drops every entry.
    public func removeAll() {
        condition.lock()
        store.removeAll()
        condition.unlock()
    }

    /// Drops the photo of asset `id`, every frame of it (removed from its store).
    func removePhoto(_ id: String) {
        condition.lock()
        store.removeAll(whereKey: { key in
            if case .photo(id, _) = key { return true }
            return false
        })
        condition.unlock()
    }

    /// The photo `key` (its frame `frame`) at a reduction of at most `maximumReduction`: the held
    /// entry when it is detailed enough, else `decode(maximumReduction)`, kept.
    /// While another thread decodes the photo, waits for it (woken by its end
    /// or by `cancellation`, never by a timer), and throws what that decode threw.
    func image(for id: String, frame: Int = 0, maximumReduction: Int, cancellation: RenderCancellation? = nil,
               decode: (Int) throws -> Image) throws -> Image {
        let key = Key.photo(id, frame: frame)
        // Registered before the lock is taken: a handler of a request already
        // cancelled runs at once, on this thread, and takes the lock itself.
        cancellation?.onCancel { [condition] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        while true {
            if case .photo(let held)? = store.value(for: key), held.reduction <= maximumReduction {
                counters.hits += 1
                condition.unlock()
                return held
            }
            guard let pending = decoding[key] else { break }
            // Another thread is decoding this photo: use its result.
            while pending.outcome == nil {
                if cancellation?.isCancelled == true {
                    condition.unlock()
                    try cancellation?.check()
                }
                condition.wait()
            }
            // A decode stopped by its own request's cancellation or deadline
            // says nothing about the photo: look again (and decode if need be).
            if case let .failure(error) = pending.outcome, !(error is CancellationError), (error as? URLError)?.code != .timedOut {
                condition.unlock()
                throw error
            }
            // It succeeded; held at the detail this request needs, or not: look again.
        }
        let mine = Decode()
        decoding[key] = mine
        condition.unlock()

        let result = Result { try decode(maximumReduction) }
        condition.lock()
        decoding[key] = nil
        mine.outcome = result
        if case let .success(image) = result {
            counters.decodes += 1
            store.insert(.photo(image), for: key, cost: image.bitmap.pixels.count)
        }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }

    /// The image an `ImageLoader` keeps for `key`, made the most recently used.
    func loadedImage(for key: ImageLoadKey) -> LoadedImage? {
        condition.lock()
        defer { condition.unlock() }
        guard case .loaded(let image)? = store.value(for: .loaded(key)) else { return nil }
        return image
    }

    /// Keeps an image an `ImageLoader` decoded, evicting the least recently used entries.
    func insert(_ image: LoadedImage, for key: ImageLoadKey) {
        condition.lock()
        store.insert(.loaded(image), for: .loaded(key), cost: image.cost)
        condition.unlock()
    }

    /// The animation an `ImageLoader` keeps for `key`, made the most recently used.
    func loadedAnimation(for key: ImageLoadKey) -> LoadedAnimation? {
        condition.lock()
        defer { condition.unlock() }
        guard case .animation(let animation)? = store.value(for: .loaded(key)) else { return nil }
        return animation
    }

    /// Keeps an animation an `ImageLoader` decoded, at the cost of every frame it holds.
    func insert(_ animation: LoadedAnimation, for key: ImageLoadKey) {
        condition.lock()
        store.insert(.animation(animation), for: .loaded(key), cost: animation.cost)
        condition.unlock()
    }
}
