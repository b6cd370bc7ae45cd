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
    /// `line-translate`.
    let translateX: Double, translateY: Double

    /// Half of the fade a line's edge gets without blur (MapLibre's `ANTIALIASING`, in device pixels).
    static let antialiasing = 0.5

    /// The feather of a line `width` pixels wide with a `gap` between its two
    /// strokes (0: one stroke), `blur`, `offset` and a translate, all in output pixels.
    init(width: Double, gap: Double, blur: Double, offset: Double, translateX: Double = 0, translateY: Double = 0) {
        let halfGap = max(0, gap) / 2, halfWidth = max(0, width) / 2
        inset = halfGap + (halfGap > 0 ? Self.antialiasing : 0)
        outset = halfGap + halfWidth * (halfGap > 0 ? 2 : 1) + (halfWidth == 0 ? 0 : Self.antialiasing)
        fade = max(0, blur) + 2 * Self.antialiasing
        self.offset = offset
        self.translateX = translateX
        self.translateY = translateY
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
            let x = vertex.point.x + (ox * t - oy * u) + outset * vertex.extrudeX + translateX
            let y = vertex.point.y + (ox * u + oy * t) + outset * vertex.extrudeY + translateY
            mesh.vertices.append(ShadedTriangles.Vertex(x: x, y: y, u: normalX, v: normalY))
        }
        mesh.indices = line.triangles
        return mesh
    }

    /// The alpha of a pixel whose interpolated normal is (`normalX`, `normalY`):
    /// fading in past a casing's inner edge, out towards the outer one.
    func alpha(normalX: Double, normalY: Double) -> Double {
        let distance = (normalX * normalX + normalY * normalY).squareRoot() * outset
        return min(1, max(0, min(distance - (inset - fade), outset - distance) / fade))
    }
}
