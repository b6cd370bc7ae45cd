import Foundation

/// A `hillshade` layer's paint as MapLibre's hillshade shader takes it (the
/// light's intensity and azimuth, premultiplied shadow, highlight and accent
/// colours), and the colour it gives a slope.
struct HillshadeShading {
    let intensity: Float
    let azimuth: Float
    let shadow: SIMD4<Float>
    let highlight: SIMD4<Float>
    let accent: SIMD4<Float>

    /// The uniforms of `style` evaluated at `zoom` (the map is drawn north
    /// up, so a viewport-anchored light is where a map-anchored one is).
    init(_ style: HillshadeLayerStyle, atZoom zoom: Double) {
        intensity = Float(style.exaggeration.value(atZoom: zoom))
        azimuth = Float(style.illuminationDirection.value(atZoom: zoom) * .pi / 180)
        func premultiplied(_ color: StyleColor) -> SIMD4<Float> {
            SIMD4(Float(color.red * color.alpha), Float(color.green * color.alpha), Float(color.blue * color.alpha), Float(color.alpha))
        }
        shadow = premultiplied(style.shadowColor.value(atZoom: zoom))
        highlight = premultiplied(style.highlightColor.value(atZoom: zoom))
        accent = premultiplied(style.accentColor.value(atZoom: zoom))
    }

    /// The premultiplied colour of a pixel with x and y slopes `derivative` at `latitude` degrees.
    func color(derivative: SIMD2<Float>, latitude: Double) -> SIMD4<Float> {
        // Slopes are divided by cos(latitude) for Mercator's stretch, then
        // steepened by MapLibre's arbitrary z-factor of 1.25.
        let scaleFactor = Float(cos(latitude * .pi / 180))
        let length = (derivative * derivative).sum().squareRoot()
        let slope = atan(1.25 * length / scaleFactor)
        let aspect = derivative.x != 0 ? atan2(derivative.y, -derivative.x) : Float.pi / 2 * (derivative.y > 0 ? 1 : -1)
        let lightAzimuth = azimuth + .pi
        let base = 1.875 - intensity * 1.75
        let maximum = 0.5 * Float.pi
        let scaledSlope = intensity != 0.5 ? ((pow(base, slope) - 1) / (pow(base, maximum) - 1)) * maximum : slope
        let accentAmount = cos(scaledSlope)
        let strength = min(max(intensity * 2, 0), 1)
        let accentColor = (1 - accentAmount) * accent * strength
        let turned = (aspect + lightAzimuth) / .pi + 0.5
        // GLSL's mod: x − y·floor(x/y).
        let shade = abs(turned - 2 * (turned / 2).rounded(.down) - 1)
        let shadeColor = (shadow + (highlight - shadow) * shade) * sin(scaledSlope) * strength
        return accentColor * (1 - shadeColor.w) + shadeColor
    }
}
