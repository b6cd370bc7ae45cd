/// A `line-gradient` as MapLibre's line-gradient shader draws it
/// (maplibre-native's `line_gradient` shaders and `PolylineGenerator`): each
/// vertex carries how far along its whole line it is (`line-progress`,
/// 0…1 from the source's `lineMetrics`), cut to the steps of the vertex
/// buffer's line distance; the fragment reads the ramp of `line-gradient`
/// there, linearly, and multiplies it by the edge's alpha and `line-opacity`.
struct LineGradient: Sendable, Hashable {
    /// `line-gradient` over `line-progress`.
    let ramp: StyleColorRamp
    /// `line-opacity`, 0…1.
    let opacity: Double

    /// The vertex buffer's longest line distance (14 bits at half a tile unit each).
    static let maxLineDistance = 32768.0

    /// How a line's progress follows the distance along it in pixels: `start + perPixel * distance`.
    struct Progress: Sendable, Hashable {
        var start: Double
        var perPixel: Double

        /// A tile's piece of a line `length` pixels long that lies from `clipStart`
        /// to `clipEnd` of its whole line (``GeoJSONTiles/clipStartKey``).
        init(clipStart: Double, clipEnd: Double, length: Double) {
            start = clipStart
            perPixel = length > 0 ? (clipEnd - clipStart) / length : 0
        }

        /// A line without metrics: MapLibre stores its distance in tile units,
        /// which the shader reads as a fraction of the buffer's longest
        /// (so the gradient's start stretched over 32768 tile units); `unit` is pixels per tile unit.
        init(pixelsPerTileUnit unit: Double) {
            start = 0
            perPixel = unit > 0 ? 1 / (unit * LineGradient.maxLineDistance) : 0
        }

        /// The progress a vertex `distance` pixels along the line gets: cut to
        /// the buffer's steps as the generator stores it and the shader reads it.
        func atVertex(_ distance: Double) -> Double {
            let scaled = (start + perPixel * distance) * (LineGradient.maxLineDistance - 1)
            let stored = (scaled / 2).rounded(.towardZero)
            return stored.isFinite ? stored * 2 / LineGradient.maxLineDistance : 0
        }
    }

    /// The premultiplied colour of a pixel at `progress` whose edge alpha is `alpha`.
    func color(progress: Double, alpha: Double) -> SIMD4<Double> {
        let texel = ramp.sample(Float(progress))
        return SIMD4<Double>(Double(texel[0]), Double(texel[1]), Double(texel[2]), Double(texel[3])) * (alpha * opacity)
    }
}
