import Foundation
import ImageCodecs
import Raster

/// The sizes an `asset://` edit goes through, worked out from the stored
/// metadata before any pixel is decoded: what the output measures, and how
/// much detail the decode must keep to make it.
///
/// Sizes follow the edit order (crop, rotate, resize) at full resolution,
/// computed by the same `Raster` functions the edits use, so a photo decoded
/// at a reduced scale still ends up exactly as large as a full decode would
/// have made it.
struct AssetGeometry {
    /// Width and height of the result; nil keeps the edited (cropped, rotated) size.
    private(set) var output: (width: Int, height: Int)?
    /// The smallest fraction of the original's sides the decode must keep
    /// (1 when the output is as large as the edited image or larger).
    let detail: Double
    /// The cropped and rotated size at full resolution: the largest image the
    /// edits make before the resize (at the decode's reduction, smaller).
    let edited: (width: Int, height: Int)

    /// Plans `asset`'s sizes; throws when the result is over `maximumPixels`
    /// (`ResourceBudget.producedPixels`).
    init(_ asset: AssetURL, uprightWidth: Int, uprightHeight: Int, maximumPixels: Int) throws {
        var width = uprightWidth, height = uprightHeight
        if let crop = asset.crop {
            let rect = try Bitmap.pixelRect(normalized: crop.x, crop.y, crop.width, crop.height, width: width, height: height)
            (width, height) = (rect.width, rect.height)
        }
        (width, height) = Bitmap.rotatedSize(width: width, height: height, degrees: asset.rotate)
        edited = (width, height)

        let w = Double(width), h = Double(height)
        var scale: Double
        switch (asset.width, asset.height) {
        case (nil, nil):
            output = nil
            detail = 1
            guard width * height <= maximumPixels else {
                throw URLParameterError(parameter: asset.rotate != 0 ? "rotate" : "width",
                                        reason: "\(asset.rotate != 0 ? "makes" : "is not given: the photo is") a \(width)×\(height) image; at most \(maximumPixels) pixels are allowed (ResourceBudget.producedPixels); give 'width' or 'height'")
            }
            return
        case let (boxWidth?, nil):
            scale = Double(boxWidth) / w
            output = (boxWidth, max(1, Int((h * scale).rounded())))
        case let (nil, boxHeight?):
            scale = Double(boxHeight) / h
            output = (max(1, Int((w * scale).rounded())), boxHeight)
        case let (boxWidth?, boxHeight?):
            switch asset.mode {
            case .fit:
                scale = min(Double(boxWidth) / w, Double(boxHeight) / h)
                output = Bitmap.fittedSize(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
            case .fill, .stretch:
                scale = max(Double(boxWidth) / w, Double(boxHeight) / h)
                output = (boxWidth, boxHeight)
            }
        }
        if !asset.enlarge, scale > 1, let box = output {
            // Never scaled up: the box shrunk by the enlargement it would take.
            output = asset.mode == .stretch && asset.width != nil && asset.height != nil
                ? (min(box.width, width), min(box.height, height))
                : (max(1, min(width, Int((Double(box.width) / scale).rounded()))), max(1, min(height, Int((Double(box.height) / scale).rounded()))))
            scale = 1
        }
        if let output, output.width * output.height > maximumPixels {
            throw URLParameterError(parameter: asset.width != nil ? "width" : "height",
                                    reason: "makes a \(output.width)×\(output.height) image; at most \(maximumPixels) pixels are allowed (ResourceBudget.producedPixels)")
        }
        detail = min(1, scale)
    }

    /// Throws unless the edits, on a photo decoded at `reduction`, stay within
    /// `maximumPixels`: a rotation grows the canvas (by up to 2× at 45°)
    /// before the resize shrinks it. Checked before anything is decoded.
    func checkWorkingSize(reduction: Int, maximumPixels: Int, rotate: Double) throws {
        let width = (edited.width + reduction - 1) / reduction, height = (edited.height + reduction - 1) / reduction
        guard width * height <= maximumPixels else {
            throw URLParameterError(parameter: rotate != 0 ? "rotate" : "width",
                                    reason: "makes a \(width)×\(height) image on the way; at most \(maximumPixels) pixels are allowed (ResourceBudget.producedPixels)")
        }
    }
}
