import Foundation
import Raster

/// A sprite image tiled over the map as MapLibre's pattern shaders tile it
/// (`background-pattern`, `fill-pattern`, `line-pattern`): anchored to the
/// world's origin in pixels of the zoom's integer part (`get_pattern_pos`
/// with its `pixel_coord_upper`/`_lower` and tile ratio), one repeat the
/// image's display size there, so between integer zooms it grows with the
/// map; sampled linearly, wrapping at its edges as the atlas pads patterns.
///
/// A still map shows the cross-fade finished: MapLibre mixes the image of
/// the zoom below (at `fromScale`) into that of the zoom itself (at
/// `toScale` 1) by a fade that has reached 1 once the zoom has settled, so
/// only the pattern the style gives at the map's zoom is drawn.
struct SpritePattern: Sendable {
    let image: SpriteImage
    /// Where the view is: each output pixel's position on the world (turn and pitch undone).
    let frame: VectorMapFrame
    /// Repeats of the pattern across and down the world (its side in pixels
    /// of the integer zoom over the image's display size).
    let repeatsX: Double, repeatsY: Double
    /// One repeat in output pixels, at the map's own zoom (along a line).
    let repeatWidth: Double
    /// The image's display height in output pixels of the integer zoom
    /// (a line pattern's height across the line is not scaled by the zoom's fraction).
    let displayHeight: Double
    /// Output pixels per point.
    let scale: Double
    let opacity: Float

    /// The pattern of `image` for a view of `camera`, at `opacity`.
    init(_ image: SpriteImage, camera: VectorMapCamera, opacity: Double) {
        self.image = image
        frame = VectorMapFrame(camera: camera, zoomRange: 0...24)
        let zoom = camera.styleZoom
        let integerZoom = zoom.rounded(.down)
        // The world at the integer zoom, in points (MapLibre's 512-point tiles).
        let world = 512 * pow(2, integerZoom)
        repeatsX = world / image.displayWidth
        repeatsY = world / image.displayHeight
        repeatWidth = image.displayWidth * pow(2, zoom - integerZoom) * camera.scale
        displayHeight = image.displayHeight * camera.scale
        scale = camera.scale
        self.opacity = Float(opacity.isFinite ? min(max(opacity, 0), 1) : 1)
    }

    /// The premultiplied colour at the centre of output pixel (`x`, `y`),
    /// transparent where the view shows no ground.
    func color(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let unit = frame.unitPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
        guard unit.x.isFinite, unit.y.isFinite else { return .zero }
        return sample(Self.fraction(unit.x * repeatsX) * Double(image.width), Self.fraction(unit.y * repeatsY) * Double(image.height)) * opacity
    }

    /// The colour of a line pattern (MapLibre's `line_pattern` shader) where
    /// a pixel lies `along` output pixels along its line and at `normal`
    /// across it (−1 at one edge, 1 at the other), for a line whose
    /// triangles reach `outset` output pixels from it: one repeat per image
    /// width along the line, the image's rows across it at their display
    /// size, centred on the line (at most a pixel past the image's edges).
    func lineColor(along: Double, normal: Double, outset: Double) -> SIMD4<Float> {
        guard repeatWidth > 0, displayHeight > 0 else { return .zero }
        let across = 0.5 + normal * min(max(outset, 0), (displayHeight + 2 * scale) / 2) / displayHeight
        return sample(Self.fraction(along / repeatWidth) * Double(image.width), across * Double(image.height)) * opacity
    }

    /// The colour at (`x`, `y`) in points of the zoom's integer part from
    /// the world's origin (a `fill-extrusion-pattern`'s roof, or its wall's
    /// distance along the ring and height).
    func color(atWorldPoints x: Double, _ y: Double) -> SIMD4<Float> {
        sample(Self.fraction(x / image.displayWidth) * Double(image.width), Self.fraction(y / image.displayHeight) * Double(image.height)) * opacity
    }

    /// `value` less its integer part, in 0..<1 (GLSL's `mod(value, 1.0)`).
    private static func fraction(_ value: Double) -> Double {
        let t = value - value.rounded(.down)
        return t < 1 ? t : 0
    }

    /// The image sampled linearly at (`u`, `v`) in image pixels (pixel
    /// centres at .5), premultiplied, wrapping at its edges.
    private func sample(_ u: Double, _ v: Double) -> SIMD4<Float> {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        let (w, h) = (image.width, image.height)
        guard w > 0, h > 0 else { return .zero }
        func texel(_ px: Int, _ py: Int) -> SIMD4<Float> {
            image.premultiplied(((px % w) + w) % w, ((py % h) + h) % h)
        }
        let top = texel(x0, y0) * (1 - tx) + texel(x0 + 1, y0) * tx
        let bottom = texel(x0, y0 + 1) * (1 - tx) + texel(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// ``color(_:_:)`` as a shader for `Canvas.fill(polygons:rule:shader:)`.
    var shader: @Sendable (Int, Int) -> SIMD4<Float> {
        let pattern = self
        return { pattern.color($0, $1) }
    }
}
