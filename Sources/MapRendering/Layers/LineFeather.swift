import Raster

/// What MapLibre's line shaders do with a tessellated line
/// (maplibre-native's `line.vertex.glsl` and `line.fragment.glsl`): the vertex
/// stage places each vertex `outset` pixels along its extrude (half the width
/// plus half a device pixel of anti-aliasing, or the gap and the whole width
/// for a casing), moved by `line-offset` and `line-translate`; the fragment
/// stage fades the edge over one device pixel plus `line-blur`, by the
/// distance from the line its interpolated normal gives.
///
/// All lengths are in output pixels (device pixels: the style's pixels times
/// the output scale), so the anti-aliasing ramp is one output pixel wide
/// whatever the scale, as MapLibre's `1 / DEVICE_PIXEL_RATIO` makes it.
struct LineFeather: Sendable, Hashable {
    /// How far the triangles reach from the line: the edge plus half a pixel of fade.
    let outset: Double
    /// Where a casing's inner edge ends fading in (0 without a gap).
    let inset: Double
    /// The fade's length: one pixel plus `line-blur`.
    let fade: Double
    /// `line-offset`, to the right of the line's direction.
    let offset: Double
    /// A `line-dasharray`'s field and how it is read, nil for a solid line.
    let dash: Dash?

    /// How a dashed line reads its ``LineDashTexture`` (maplibre-native's `LineSDFProgram` uniforms).
    struct Dash: Sendable, Hashable {
        /// The field.
        let texture: LineDashTexture
        /// Pixels along the line per period of the texture: the period in line
        /// widths times the width at the zoom's integer part, in pixels of that zoom.
        let length: Double
        /// Half the width of the smoothstep the field's edge is taken through, in field units.
        let gamma: Double
    }

    /// Half of the fade a line's edge gets without blur (MapLibre's `ANTIALIASING`, in device pixels).
    static let antialiasing = 0.5

    /// The feather of a line `width` pixels wide with a `gap` between its two
    /// strokes (0: one stroke), `blur` and `offset`, all in output pixels (a
    /// translate moves the line's points before: ``VectorLayerDrawer``).
    init(width: Double, gap: Double, blur: Double, offset: Double, dash: Dash? = nil) {
        let halfGap = max(0, gap) / 2, halfWidth = max(0, width) / 2
        inset = halfGap + (halfGap > 0 ? Self.antialiasing : 0)
        outset = halfGap + halfWidth * (halfGap > 0 ? 2 : 1) + (halfWidth == 0 ? 0 : Self.antialiasing)
        fade = max(0, blur) + 2 * Self.antialiasing
        self.offset = offset
        self.dash = dash
    }

    /// The tessellated line's triangles in pixels, clipped to `clip`, each
    /// vertex carrying the shader's normal (x 1 at a round cap's outer
    /// vertices, y ±1 across the line) to interpolate.
    func mesh(of line: LineTessellator, clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> ShadedTriangles {
        var mesh = ShadedTriangles(clip: clip)
        mesh.vertices.reserveCapacity(line.vertices.count)
        for vertex in line.vertices {
            let normalX: Double = vertex.round ? 1 : 0, normalY: Double = vertex.up ? 1 : -1
            // The offset turns with a cap's direction, as the shader's mat2(t, -u, u, t) turns it.
            let u = 0.5 * Double(vertex.direction), t = 1 - abs(u)
            let ox = -offset * vertex.extrudeX * normalY, oy = -offset * vertex.extrudeY * normalY
            let x = vertex.point.x + (ox * t - oy * u) + outset * vertex.extrudeX
            let y = vertex.point.y + (ox * u + oy * t) + outset * vertex.extrudeY
            mesh.vertices.append(ShadedTriangles.Vertex(x: x, y: y, u: normalX, v: normalY, w: vertex.distance))
        }
        mesh.indices = line.triangles
        return mesh
    }

    /// Where ``alpha(normalX:normalY:along:)`` is settled by the normal's
    /// length alone (``ShadedTriangles/RadialBounds``, in `normalX * normalX + normalY * normalY`):
    /// 0 in a casing's gap before its inner edge fades in and past the outer
    /// edge (round caps' corners), 1 between the fades of a solid line. Each
    /// bound is moved inward by a relative 1e-9, far more than the rounding of
    /// the alpha's arithmetic, so the pixels it settles get the bytes the
    /// shader would give them.
    var radialBounds: ShadedTriangles.RadialBounds {
        let margin = 1e-9
        // alpha = min(distance − (inset − fade), outset − distance) / fade, clamped, times a dash's field.
        let innerZero = inset - fade
        let zeroWithin = innerZero > 0 ? innerZero / outset * (innerZero / outset) * (1 - margin) : -1
        let fullFrom = max(0, innerZero + fade) / outset, fullTo = (outset - fade) / outset
        let solid = dash == nil && fullTo > 0 && fullFrom <= fullTo
        return ShadedTriangles.RadialBounds(zeroWithin: zeroWithin,
                                            fullFrom: solid ? fullFrom * fullFrom * (1 + margin) : 1,
                                            fullTo: solid ? fullTo * fullTo * (1 - margin) : -1,
                                            zeroFrom: 1 + margin)
    }

    /// The alpha of a pixel whose interpolated normal is (`normalX`, `normalY`)
    /// and `along` pixels along the line: fading in past a casing's inner
    /// edge, out towards the outer one, and where a dash's field says.
    func alpha(normalX: Double, normalY: Double, along: Double) -> Double {
        let distance = (normalX * normalX + normalY * normalY).squareRoot() * outset
        let alpha = min(1, max(0, min(distance - (inset - fade), outset - distance) / fade))
        guard let dash, alpha > 0 else { return alpha }
        // Across the texture: the middle row on the line, the outer rows at its edges.
        let rows = Double(dash.texture.rows), height = Double(dash.texture.height)
        let t = normalY * -(rows / height) / 2 + (0.5 + Double(LineDashTexture.roundRows * (dash.texture.rows > 1 ? 1 : 0))) / height
        let field = dash.texture.sample(s: along / dash.length, t: t)
        let low = 0.5 - dash.gamma, high = 0.5 + dash.gamma
        let k = min(1, max(0, (field - low) / (high - low)))
        return alpha * k * k * (3 - 2 * k)
    }
}
