import Foundation
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The photos of an `AssetStore` as upright pixels, decoded no finer than a
/// render needs and through a `DecodedImageCache`: what `asset://` and
/// `avatar://` renderers read. Share one between both schemes so they share
/// the decoded photos too.
public final class AssetImageSource: Sendable {
    /// Where the photos are stored.
    public let store: any AssetStore
    /// The decoded photos held in memory.
    public let cache: DecodedImageCache

    /// Photos from `store`, decoded through `cache`.
    public init(store: any AssetStore, cache: DecodedImageCache = DecodedImageCache()) {
        self.store = store
        self.cache = cache
    }

    /// The stored facts of asset `id`. Throws what the store throws (`AssetStoreError.notFound` for an unknown id).
    public func metadata(for id: String) throws -> AssetMetadata {
        try store.metadata(for: id)
    }

    /// Asset `id` upright, with each side at least `fraction` (0...1) of the
    /// upright original's: a JPEG wanted at half its size or less decodes at
    /// 1/2, 1/4 or 1/8 scale instead of decoding every pixel and resizing.
    ///
    /// `frameIndex` picks a frame of an animated GIF or WebP, an index from 0
    /// (the first, what a still image is; `AssetURL.frame` 1 is index 0):
    /// composited as browsers show it, at
    /// full size. The frames before it are decoded one at a time (under the
    /// decoder's default frame and composited-pixel limits, checked before
    /// the first); a frame past the last is `URLParameterError` naming
    /// `frame` and the range, as `asset://` writes it (from 1).
    ///
    /// Throws `AssetStoreError.notFound` for an unknown id and
    /// `AssetDecodingError` for a stored file that does not decode or is over
    /// `budget` (pixels, JPEG scans); a load reports them as `URLError`s.
    /// `cancellation` reaches into the JPEG decoder and into waits for
    /// another request's decode of the same photo.
    public func image(for id: String, frameIndex: Int = 0, fraction: Double = 1, budget: ResourceBudget = ResourceBudget(),
                      cancellation: RenderCancellation? = nil) throws -> DecodedImageCache.Image {
        try image(for: metadata(for: id), frameIndex: frameIndex, fraction: fraction, budget: budget, cancellation: cancellation)
    }

    /// `image(for:frameIndex:fraction:budget:cancellation:)` for an asset whose metadata the caller already read.
    public func image(for metadata: AssetMetadata, frameIndex: Int = 0, fraction: Double = 1, budget: ResourceBudget = ResourceBudget(),
                      cancellation: RenderCancellation? = nil) throws -> DecodedImageCache.Image {
        let id = metadata.id, frame = frameIndex
        let reduction = frame == 0 ? reduction(for: metadata, fraction: fraction) : 1
        do {
            return try cache.image(for: id, frame: frame, maximumReduction: reduction, cancellation: cancellation) { reduction in
                let data = try store.data(for: id)
                try cancellation?.check()
                if frame > 0 {
                    return .init(bitmap: try Self.frame(frame, of: data, budget: budget, cancellation: cancellation), reduction: 1)
                }
                // A JPEG or a GIF at 1/reduction of its size; a PNG decodes at full size.
                let options = ImageDecoder.Options(jpegScale: JPEGScale(rawValue: reduction) ?? .full,
                                                   maximumPixelCount: budget.decodedPixels, maximumScanCount: budget.jpegScans)
                let decoded = try ImageDecoder.decode(data, options: options) { try cancellation?.check() }
                return .init(bitmap: decoded.bitmap, reduction: decoded.scale.rawValue)
            }
        } catch let error as AssetStoreError {
            throw error
        } catch let error as URLParameterError {
            throw error  // a frame past the last
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError {
            throw error  // the render's deadline
        } catch {
            throw AssetDecodingError(id: id, underlying: error)
        }
    }

    /// The environment's photos, or the error a load reports when it has no store.
    static func of(_ context: RenderContext) throws -> AssetImageSource {
        guard let assets = context.environment.assets else {
            throw URLErrors.make(.resourceUnavailable, UnconfiguredAssetStore.message, url: nil)
        }
        return assets
    }

    /// Frame `index` (from 0) of the animation in `data`, upright: the frames
    /// before it decoded one at a time and let go. Checked before the first:
    /// `index` against the frames the file holds, and `index + 1` canvases
    /// against the decoder's composited-pixel limit.
    private static func frame(_ index: Int, of data: Data, budget: ResourceBudget, cancellation: RenderCancellation?) throws -> Bitmap {
        let options = ImageDecoder.Options(maximumPixelCount: budget.decodedPixels, maximumScanCount: budget.jpegScans)
        var animation = try ImageDecoder.animation(data, options: options)
        let count = animation.storedFrameCount
        guard index < count else { throw frameOutOfRange(index, count: count) }
        let canvas = animation.info.width * animation.info.height
        guard canvas <= options.maximumAnimationPixelCount / (index + 1) else {
            throw ImageCodecError(AnimationError.tooManyPixels(frames: index + 1, canvasPixels: canvas, limit: options.maximumAnimationPixelCount))
        }
        while true {
            try cancellation?.check()
            // A file cut or damaged after its header may end before the count its blocks gave.
            guard let next = try animation.nextFrame() else { throw frameOutOfRange(index, count: animation.frameCount) }
            if next.index == index { return next.bitmap }
        }
    }

    /// The error for `asset://`'s `frame` past the last of `count` (written from 1, as the URL does).
    static func frameOutOfRange(_ index: Int, count: Int) -> URLParameterError {
        let range = count == 0 ? "it shows no frame" : count == 1 ? "it has one frame (frame=1)" : "it has \(count) frames (frame=1 to frame=\(count))"
        return URLParameterError(parameter: "frame", reason: "asks for frame \(index + 1), but \(range)")
    }

    /// The reduction `image(for:fraction:)` decodes `metadata`'s photo at:
    /// 1, 2, 4 or 8 for a JPEG or a GIF (its first frame composited at that
    /// scale: a 64-megapixel screen never allocated for a small output), 1
    /// for anything else.
    func reduction(for metadata: AssetMetadata, fraction: Double) -> Int {
        metadata.format == .jpeg || metadata.format == .gif ? Self.reduction(for: fraction) : 1
    }

    /// The coarsest JPEG scale whose output keeps at least `fraction` of each side.
    static func reduction(for fraction: Double) -> Int {
        guard fraction.isFinite, fraction > 0 else { return 1 }
        return JPEGScale.allCases.map(\.rawValue).filter { 1 / Double($0) >= fraction }.max() ?? 1
    }
}

/// A stored photo that does not decode (or is over the budget): which asset, and why.
struct AssetDecodingError: Error, CustomStringConvertible {
    let id: String
    let underlying: Error

    var description: String { "stored asset '\(id)' does not decode: \(underlying)" }
}
