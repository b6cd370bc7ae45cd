import Raster

/// One image of a sprite: its rectangle on the sheet and how it is drawn, as
/// the sprite's `.json` index describes it.
public struct SpriteImage: Sendable, Equatable {
    /// The image's name (prefixed `id:` for a sprite of the array form other than `default`).
    public var name: String
    /// The rectangle on the sheet, in sheet pixels.
    public var x: Int, y: Int, width: Int, height: Int
    /// Sheet pixels per CSS pixel (default 1; 2 for an `@2x` sheet).
    public var pixelRatio: Double
    /// True for a signed-distance-field image, recoloured by `icon-color` and `icon-halo-*`.
    public var sdf: Bool
    /// `stretchX`/`stretchY`: the ranges (in image pixels) that stretch for `icon-text-fit`.
    public var stretchX: [ClosedRange<Double>], stretchY: [ClosedRange<Double>]
    /// `content`: the box (left, top, right, bottom in image pixels) text fits into.
    public var content: [Double]?
    /// `textFitWidth`/`textFitHeight`: how the `content` box follows the text's
    /// width and height under `icon-text-fit` (default `stretchOrShrink`).
    public var textFitWidth: TextFit = .stretchOrShrink, textFitHeight: TextFit = .stretchOrShrink
    /// The sheet's pixels (straight alpha), shared by every image of the sheet.
    public let sheet: Bitmap

    /// How an image's content follows its text along one axis (`textFitWidth`/`textFitHeight`).
    public enum TextFit: String, Sendable {
        /// Stretched or shrunk to the text (the default).
        case stretchOrShrink
        /// Stretched to the text, never shrunk below the content's size.
        case stretchOnly
        /// Kept in the content's aspect ratio, following the other axis.
        case proportional
    }

    /// The size drawn at `icon-size` 1, in CSS pixels.
    public var displayWidth: Double { Double(width) / pixelRatio }
    /// See ``displayWidth``.
    public var displayHeight: Double { Double(height) / pixelRatio }

    /// The sheet pixel at (`px`, `py`) of the image as premultiplied RGBA 0…1;
    /// transparent outside the image (as the padding MapLibre's atlas leaves around it).
    func premultiplied(_ px: Int, _ py: Int) -> SIMD4<Float> {
        guard px >= 0, py >= 0, px < width, py < height else { return .zero }
        let offset = ((y + py) * sheet.width + x + px) * 4
        let a = Float(sheet.pixels[offset + 3]) / 255
        return SIMD4(Float(sheet.pixels[offset]) / 255 * a, Float(sheet.pixels[offset + 1]) / 255 * a,
                     Float(sheet.pixels[offset + 2]) / 255 * a, a)
    }

    /// The image sampled bilinearly at (`u`, `v`) in image pixels (pixel
    /// centres at .5), premultiplied: what a GPU's linear filter gives.
    func bilinear(_ u: Double, _ v: Double) -> SIMD4<Float> {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        let top = premultiplied(x0, y0) * (1 - tx) + premultiplied(x0 + 1, y0) * tx
        let bottom = premultiplied(x0, y0 + 1) * (1 - tx) + premultiplied(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The image sampled at the pixel holding (`u`, `v`): a GPU's nearest filter.
    func nearest(_ u: Double, _ v: Double) -> SIMD4<Float> {
        premultiplied(Int(u.rounded(.down)), Int(v.rounded(.down)))
    }
}
