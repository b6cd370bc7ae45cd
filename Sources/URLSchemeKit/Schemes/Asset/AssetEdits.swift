import ImageCodecs
import Raster

/// The edits of an `asset://` URL after the frame is chosen, in the
/// documented order (crop, rotate, flip, filters, resize), as one step
/// applied to a still photo or to each composited frame of an animation.
struct AssetEdits {
    let asset: AssetURL
    /// The result's size, nil to keep the edited size (`AssetGeometry.output`).
    let output: (width: Int, height: Int)?

    /// `image`, decoded at `pixelScale` of the original's sides, edited.
    /// `cancellation` is polled between and inside the steps.
    func apply(to image: Bitmap, pixelScale: Double, cancellation: RenderCancellation) throws -> Bitmap {
        var image = image
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
        for edit in asset.filters {
            image = try image.applying(edit.filter(pixelScale: pixelScale), checkCancellation: cancellation.check)
        }
        if let output, (output.width, output.height) != (image.width, image.height) {
            if asset.mode == .fill, asset.width != nil, asset.height != nil {
                // Crops, then resamples.
                image = try image.resized(width: output.width, height: output.height, mode: .fill, checkCancellation: cancellation.check)
            } else {
                image = try image.resized(width: output.width, height: output.height, checkCancellation: cancellation.check)
            }
        }
        try cancellation.check()
        return image
    }
}
