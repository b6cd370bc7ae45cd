import Foundation
import ImageCodecs
import Raster

/// `asset://`'s renderer: reads the stored photo through an `AssetImageSource`
/// (decoded once, at the detail the output needs; an animation's first frame,
/// or the one `frame` names), edits it in the documented order (EXIF
/// orientation, crop, rotate, flip, filters, resize) and encodes it.
/// The photos are the environment's (`URLSchemeKitEnvironment.assets`).
public struct AssetRenderer: Renderer {
    /// A renderer of the environment's photos.
    public init() {}

    /// The edits' and encoder's output: bump when a filter, the resampler or
    /// the encoder defaults change what a URL makes of a photo.
    public var version: String { "asset-1 " + OutputEncoding.version }

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
        let decoded = try source.image(for: metadata, frameIndex: asset.frame - 1, fraction: geometry.detail, budget: budget, cancellation: cancellation)
        try cancellation.check()

        var image = decoded.bitmap
        if let crop = asset.crop {
            image = try image.cropped(toNormalized: crop.x, crop.y, crop.width, crop.height)
        }
        if asset.rotate != 0 {
            image = try image.rotated(by: asset.rotate, checkCancellation: cancellation.check)
        }
        switch asset.flip {
        case nil: break
        case .h: image = image.flipped(.horizontal)
        case .v: image = image.flipped(.vertical)
        case .hv: image = image.flipped(.horizontal).flipped(.vertical)
        }
        try cancellation.check()
        let pixelScale = 1 / Double(decoded.reduction)
        for edit in asset.filters {
            image = try image.applying(edit.filter(pixelScale: pixelScale), checkCancellation: cancellation.check)
        }
        if let output = geometry.output, (output.width, output.height) != (image.width, image.height) {
            if asset.mode == .fill, asset.width != nil, asset.height != nil {
                // Crops, then resamples.
                image = try image.resized(width: output.width, height: output.height, mode: .fill, checkCancellation: cancellation.check)
            } else {
                image = try image.resized(width: output.width, height: output.height, checkCancellation: cancellation.check)
            }
        }
        try cancellation.check()
        return try OutputEncoding.encode(image, format: asset.format ?? OutputEncoding.photoFormat(for: image), quality: asset.quality, lossless: asset.lossless, cancellation: cancellation)
    }
}
