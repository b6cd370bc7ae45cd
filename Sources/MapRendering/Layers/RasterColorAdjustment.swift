import Foundation

/// A `raster` layer's paint turned into MapLibre's raster shader uniforms
/// (`raster.fragment.glsl` and its uniform values): opacity, the hue-rotation
/// "spin" weights, saturation and contrast factors and the brightness range,
/// applied to one sampled texel.
struct RasterColorAdjustment {
    let opacity: Float
    let spin: SIMD3<Float>
    let saturationFactor: Float
    let contrastFactor: Float
    let brightnessLow: Float
    let brightnessHigh: Float

    /// The uniforms of `style` evaluated at `zoom`.
    init(_ style: RasterLayerStyle, atZoom zoom: Double) {
        opacity = Float(style.opacity.value(atZoom: zoom))
        let angle = style.hueRotate.value(atZoom: zoom) * .pi / 180
        let (s, c) = (sin(angle), cos(angle))
        spin = SIMD3(Float((2 * c + 1) / 3), Float((-3.0.squareRoot() * s - c + 1) / 3), Float((3.0.squareRoot() * s - c + 1) / 3))
        let saturation = style.saturation.value(atZoom: zoom)
        saturationFactor = Float(saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation)
        let contrast = style.contrast.value(atZoom: zoom)
        contrastFactor = Float(contrast > 0 ? 1 / (1 - contrast) : 1 + contrast)
        brightnessLow = Float(style.brightnessMin.value(atZoom: zoom))
        brightnessHigh = Float(style.brightnessMax.value(atZoom: zoom))
    }

    /// The premultiplied colour drawn for the premultiplied texel `texel`.
    func apply(_ texel: SIMD4<Float>) -> SIMD4<Float> {
        var color = texel
        if color.w > 0 {
            color.x /= color.w
            color.y /= color.w
            color.z /= color.w
        }
        let alpha = color.w * opacity
        var rgb = SIMD3(color.x, color.y, color.z)
        rgb = SIMD3((rgb * spin).sum(),
                    (rgb * SIMD3(spin.z, spin.x, spin.y)).sum(),
                    (rgb * SIMD3(spin.y, spin.z, spin.x)).sum())
        let average = (color.x + color.y + color.z) / 3
        rgb += (SIMD3(repeating: average) - rgb) * saturationFactor
        rgb = (rgb - 0.5) * contrastFactor + 0.5
        rgb = SIMD3(repeating: brightnessLow) + (brightnessHigh - brightnessLow) * rgb
        return SIMD4(rgb * alpha, alpha)
    }

    /// `color` (premultiplied, 0…1) as the 8-bit bytes a framebuffer stores, clamped (NaN as 0).
    static func bytes(_ color: SIMD4<Float>) -> SIMD4<UInt8> {
        var bytes = SIMD4<UInt8>()
        for lane in 0..<4 {
            let value = color[lane]
            bytes[lane] = value > 0 ? UInt8((min(value, 1) * 255).rounded(.toNearestOrEven)) : 0
        }
        return bytes
    }
}
