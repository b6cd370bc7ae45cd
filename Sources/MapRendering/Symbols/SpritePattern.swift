import Foundation
import Raster

/// A sprite image tiled over the map as MapLibre's pattern shaders tile it
/// (`background-pattern`, `fill-pattern`): anchored to the world's origin at
/// the integer zoom, the image's display size there, so between integer
/// zooms it grows with the map (`get_pattern_pos`, with the fade finished);
/// sampled linearly, wrapping at its edges as the atlas pads patterns.
struct SpritePattern: Sendable {
    let image: SpriteImage
    /// The world's top-left corner, in output pixels of the view.
    let originX: Double, originY: Double
    /// One repeat of the pattern across and down, in output pixels.
    let repeatWidth: Double, repeatHeight: Double
    let opacity: Float

    /// The pattern of `image` for a view of `camera`, at `opacity`.
    init(_ image: SpriteImage, camera: VectorMapCamera, opacity: Double) {
        self.image = image
        let latitude = min(max(camera.center.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude)
        let center = WebMercator.project(latitude: latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        originX = Double(camera.pixelWidth) / 2 - center.x * camera.scale
        originY = Double(camera.pixelHeight) / 2 - center.y * camera.scale
        let growth = pow(2, camera.styleZoom - camera.styleZoom.rounded(.down))
        repeatWidth = image.displayWidth * growth * camera.scale
        repeatHeight = image.displayHeight * growth * camera.scale
        self.opacity = Float(opacity)
    }

    /// The premultiplied colour at the centre of output pixel (`x`, `y`).
    func color(_ x: Int, _ y: Int) -> SIMD4<Float> {
        func wrapped(_ v: Double, _ period: Double) -> Double {
            let t = (v / period).truncatingRemainder(dividingBy: 1)
            return t < 0 ? t + 1 : t
        }
        let u = wrapped(Double(x) + 0.5 - originX, repeatWidth) * Double(image.width)
        let v = wrapped(Double(y) + 0.5 - originY, repeatHeight) * Double(image.height)
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        func texel(_ px: Int, _ py: Int) -> SIMD4<Float> {
            image.premultiplied((px + image.width) % image.width, (py + image.height) % image.height)
        }
        let top = texel(x0, y0) * (1 - tx) + texel(x0 + 1, y0) * tx
        let bottom = texel(x0, y0 + 1) * (1 - tx) + texel(x0 + 1, y0 + 1) * tx
        return (top * (1 - ty) + bottom * ty) * opacity
    }

    /// ``color(_:_:)`` as a shader for `Canvas.fill(polygons:rule:shader:)`.
    var shader: @Sendable (Int, Int) -> SIMD4<Float> {
        let pattern = self
        return { pattern.color($0, $1) }
    }
}
