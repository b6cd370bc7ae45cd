/// A colour property over one input (`heatmap-density`, `line-progress`)
/// as MapLibre's colour-ramp textures hold it: 256 texels, the input k/256
/// at texel k, each channel premultiplied and cut to 8 bits, sampled
/// linearly and clamped at the edges.
struct StyleColorRamp: Sendable, Hashable {
    /// The texels, premultiplied, 0…1.
    let texels: [SIMD4<Float>]

    /// Texels across the ramp.
    static let width = 256

    /// The ramp of `color` evaluated at `zoom` with the property `inputKey`
    /// (a key no tile has: `StyleExpression.heatmapDensityKey`, `lineProgressKey`) set to k/256.
    init(_ color: StyleProperty<StyleColor>, atZoom zoom: Double, inputKey: String) {
        texels = (0..<Self.width).map { step in
            let value = color.value(atZoom: zoom, for: RampInputFeature(key: inputKey, value: Double(step) / Double(Self.width)))
            let alpha = min(max(value.alpha.isNaN ? 0 : value.alpha, 0), 1)
            func channel(_ c: Double) -> Float { Float((min(max(c.isNaN ? 0 : c, 0), 1) * alpha * 255).rounded(.down) / 255) }
            return SIMD4(channel(value.red), channel(value.green), channel(value.blue), Float((alpha * 255).rounded(.down) / 255))
        }
    }

    /// The ramp at `t` (0…1, clamped), filtered linearly between texel centres.
    func sample(_ t: Float) -> SIMD4<Float> {
        let position = min(max(t.isNaN ? 0 : t, 0), 1) * Float(Self.width) - 0.5
        let low = position.rounded(.down)
        let i = Int(max(0, min(Float(Self.width - 1), low))), j = Int(max(0, min(Float(Self.width - 1), low + 1)))
        return texels[i] + (texels[j] - texels[i]) * (position - low)
    }
}

/// The stand-in feature a ramp's colour is evaluated with: its one property is the ramp's input.
private struct RampInputFeature: StyleFeature {
    var key: String
    var value: Double
    var styleGeometryType: StyleGeometryType { .point }
    var featureID: UInt64? { nil }
    func styleValue(forKey key: String) -> StyleValue? {
        key == self.key ? .number(value) : nil
    }
}
