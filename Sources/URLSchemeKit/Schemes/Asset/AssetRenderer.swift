import Foundation
import ImageCodecs
import Raster

/// `asset://`'s renderer: reads the stored photo through an `AssetImageSource`
/// (decoded once, at the detail the output needs; an animation's first frame,
/// or the one `frame` names), edits it in the documented order (EXIF
/// orientation, crop, rotate, flip, filters, resize) and encodes it. An
/// animated GIF or WebP without `frame`, written as GIF or WebP, is edited
/// frame by frame and stays animated.
/// The photos are the environment's (`URLSchemeKitEnvironment.assets`).
public struct AssetRenderer: Renderer {
    /// A renderer of the environment's photos.
    public init() {}

    /// The edits' and encoder's output: bump when a filter, the resampler or
    /// the encoder defaults change what a URL makes of a photo.
    public var version: String { "asset-3 " + OutputEncoding.version }  // 3: animated WebP frames lossy unless lossless=true

    /// Reads, edits and encodes the photo `asset` names. Throws `URLError(.fileDoesNotExist)` for an unknown id, `.cannotDecodeContentData` for a stored file that does not decode, `CancellationError` once cancelled.
    public func render(_ asset: AssetURL, in context: RenderContext) throws -> RenderedImage {
        let budget = context.budget
        let cancellation = context.cancellation
        guard asset.filters.count <= budget.filters else {
            throw URLParameterError(parameter: "filter", reason: "chains \(asset.filters.count) filters; at most \(budget.filters) (ResourceBudget.filters)")
        }
        let source = try AssetImageSource.of(context)
        let metadata = try source.metadata(for: asset.id)
        let upright = metadata.uprightSize
        // Every size is planned and checked against the budget before a pixel is decoded.
        let geometry = try AssetGeometry(asset, uprightWidth: upright.width, uprightHeight: upright.height, maximumPixels: budget.producedPixels)
        try geometry.checkWorkingSize(reduction: source.reduction(for: metadata, fraction: geometry.detail),
                                      maximumPixels: budget.producedPixels, rotate: asset.rotate)
        if asset.frame == nil, metadata.format.canAnimate, (asset.format ?? metadata.format).canAnimate {
            // Kept animated; a stored GIF or WebP of one frame goes on as a photo.
            let data = try source.store.data(for: metadata.id)
            let animation = AssetAnimationRenderer(asset: asset, geometry: geometry, budget: budget)
            if let rendered = try animation.render(data, id: metadata.id, format: asset.format ?? metadata.format, cancellation: cancellation) {
                return rendered
            }
        }
        let decoded = try source.image(for: metadata, frameIndex: (asset.frame ?? 1) - 1, fraction: geometry.detail, budget: budget, cancellation: cancellation)
        try cancellation.check()
        let image = try AssetEdits(asset: asset, output: geometry.output)
            .apply(to: decoded.bitmap, pixelScale: 1 / Double(decoded.reduction), cancellation: cancellation)
        return try OutputEncoding.encode(image, format: asset.format ?? OutputEncoding.photoFormat(for: image), quality: asset.quality, lossless: asset.lossless, cancellation: cancellation)
    }
}
