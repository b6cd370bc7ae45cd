import Foundation
import Raster

/// MapLibre's perspective camera over a flat map, as a projective map of the
/// plane: from the map plane (the unpitched view in output pixels, turned by
/// the bearing, its centre at the image's centre) to the image.
///
/// MapLibre's transform (`transform.ts` `_calcMatrices`, Native's
/// `TransformState::getProjMatrix`) looks at the centre from
/// `cameraToCenterDistance` = ½ · height / tan(½ · fov) away, fov 0.6435 rad
/// (36.87°, so 1.5 × the height), tilted by the pitch about the image's
/// horizontal axis. On the ground (z = 0) its matrix reduces to a 3×3
/// homography: with the plane point's offset (x, y) from the centre and D
/// that distance, the image point is the centre plus
/// (D · x, D · cos p · y) / (D − sin p · y), the denominator being the depth
/// (the distance along the view direction). The near plane (height / 50) and
/// the far plane (the depth of the farthest ground the top of the image
/// shows, × 1.01) are MapLibre's; both are lines of constant plane y, so
/// clipping to them is clipping to a horizontal band of the plane.
struct PitchProjection: Equatable, Sendable {
    /// MapLibre's vertical field of view, radians (`transform.ts`: 0.6435011087932844).
    static let fieldOfView = 0.6435011087932844

    /// The pitch, degrees from looking straight down.
    let pitch: Double
    /// The image size, output pixels.
    let width: Double
    let height: Double
    /// The camera's distance to the centre, output pixels (MapLibre's `cameraToCenterDistance`).
    let distance: Double
    /// Cosine and sine of the pitch.
    private let cosPitch: Double
    private let sinPitch: Double
    /// The plane y (output pixels, image centre at `height / 2`) nearest to
    /// the camera that is drawn: MapLibre's near plane.
    let nearY: Double
    /// The plane y farthest from the camera that is drawn: MapLibre's far plane.
    let farY: Double
    /// The far plane's depth (output pixels along the view direction).
    let farDepth: Double
    /// The image row of the far plane (negative when the ground fills the image).
    let farRow: Double
    /// Heights drawn without perspective (``project(_:elevation:)``), or nil.
    let axonometric: AxonometricProjection?

    /// The projection of a camera pitched by `pitch` degrees (0 < pitch < 90;
    /// 0 only for ``project(_:elevation:)``, the planes' bounds then infinite)
    /// on a `width` × `height` output pixel image (its height is the points'
    /// height times the scale, so every length is MapLibre's times the scale).
    init(pitch: Double, width: Double, height: Double, axonometric: AxonometricProjection? = nil) {
        self.pitch = pitch
        self.axonometric = axonometric
        self.width = width
        self.height = height
        let angle = pitch * .pi / 180
        (cosPitch, sinPitch) = (cos(angle), sin(angle))
        let halfFov = Self.fieldOfView / 2
        distance = 0.5 / tan(halfFov) * height
        // MapLibre's far plane: the law of sines finds the ground the image's
        // top edge sees; past the horizon the angle is held at 0.01 rad.
        let groundAngle = Double.pi / 2 + angle
        let topHalfSurfaceDistance = sin(halfFov) * distance / sin(min(max(Double.pi - groundAngle - halfFov, 0.01), Double.pi - 0.01))
        farDepth = (cos(Double.pi / 2 - angle) * topHalfSurfaceDistance + distance) * 1.01
        let nearDepth = height / 50
        // depth = D − sin p · (y − h/2)
        farY = height / 2 - (farDepth - distance) / sinPitch
        nearY = height / 2 + (distance - nearDepth) / sinPitch
        let far = distance * cosPitch * (farY - height / 2) / farDepth
        farRow = height / 2 + far
    }

    /// The depth of plane row `y` over the camera's distance: 1 at the centre,
    /// less nearer, more farther (MapLibre's `gl_Position.w` over `cameraToCenterDistance`).
    @inline(__always)
    func depthRatio(atPlaneY y: Double) -> Double {
        1 - sinPitch * (y - height / 2) / distance
    }

    /// The image point of plane point `p`.
    @inline(__always)
    func project(_ p: Point) -> Point {
        let dx = p.x - width / 2, dy = p.y - height / 2
        let w = 1 - sinPitch * dy / distance
        return Point(width / 2 + dx / w, height / 2 + cosPitch * dy / w)
    }

    /// The plane point of image point `p` (its row held to the far plane's,
    /// so rows above the horizon give the far plane's ends).
    func unproject(_ p: Point) -> Point {
        let dx = p.x - width / 2, dy = max(p.y, farRow) - height / 2
        let y = dy * distance / (distance * cosPitch + dy * sinPitch)
        return Point(width / 2 + dx * (1 - sinPitch * y / distance), height / 2 + y)
    }

    /// Whether image row `y` shows ground within the far plane.
    @inline(__always)
    func showsGround(row y: Double) -> Bool { y >= farRow }

    /// The image's ground in the plane: its four corners (top-left, top-right,
    /// bottom-right, bottom-left), the top cut at the far plane.
    var groundCorners: [Point] {
        let top = max(0, farRow)
        return [Point(0, top), Point(width, top), Point(width, height), Point(0, height)].map(unproject)
    }

    /// `ring` (plane points) cut to the band MapLibre draws, between the far
    /// and near planes (Sutherland–Hodgman against two horizontal lines).
    func clip(ring: [Point]) -> [Point] {
        func cut(_ points: [Point], keep: (Point) -> Bool, at y: Double) -> [Point] {
            guard let last = points.last else { return [] }
            var out: [Point] = []
            out.reserveCapacity(points.count + 2)
            var previous = last
            for point in points {
                let (inside, wasInside) = (keep(point), keep(previous))
                if inside != wasInside {
                    let t = (y - previous.y) / (point.y - previous.y)
                    out.append(Point(previous.x + (point.x - previous.x) * t, y))
                }
                if inside { out.append(point) }
                previous = point
            }
            return out
        }
        guard ring.contains(where: { $0.y < farY || $0.y > nearY }) else { return ring }
        let (far, near) = (farY, nearY)
        return cut(cut(ring, keep: { $0.y >= far }, at: far), keep: { $0.y <= near }, at: near)
    }

    /// `line` (plane points) cut to the band between the far plane and a
    /// depth of an eighth of the camera's distance (nearer than anything the
    /// image shows below 85°, far enough that a stroke widened about it stays
    /// in front of the camera): the pieces inside.
    func clip(line: [Point]) -> [[Point]] {
        let (low, high) = (farY, height / 2 + distance * 7 / 8 / sinPitch)
        guard line.contains(where: { $0.y < low || $0.y > high }) else { return [line] }
        var pieces: [[Point]] = []
        var current: [Point] = []
        for i in line.indices.dropFirst() {
            let (a, b) = (line[i - 1], line[i])
            // The segment's parameters inside the band (Liang–Barsky on y).
            var (t0, t1) = (0.0, 1.0)
            let dy = b.y - a.y
            if dy == 0 {
                if a.y < low || a.y > high { t0 = 1; t1 = 0 }
            } else {
                let (ta, tb) = ((low - a.y) / dy, (high - a.y) / dy)
                (t0, t1) = (max(t0, min(ta, tb)), min(t1, max(ta, tb)))
            }
            guard t0 <= t1 else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            func at(_ t: Double) -> Point { t == 0 ? a : t == 1 ? b : Point(a.x + (b.x - a.x) * t, a.y + dy * t) }
            if t0 > 0 || current.isEmpty {
                if current.count >= 2 { pieces.append(current) }
                current = [at(t0)]
            }
            current.append(at(t1))
            if t1 < 1 {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// `mesh`'s vertices, made in the plane, put on the image (held in front
    /// of the near plane, so a hostile width cannot fold a stroke behind the camera).
    func project(_ mesh: ShadedTriangles) -> ShadedTriangles {
        var mesh = mesh
        for i in mesh.vertices.indices {
            let v = mesh.vertices[i]
            let p = project(Point(v.x, min(v.y, nearY)))
            (mesh.vertices[i].x, mesh.vertices[i].y) = (p.x, p.y)
        }
        return mesh
    }
}

extension PitchProjection {
    /// The image point of the point `z` output pixels above plane point `p`,
    /// its clip w (what GL divides by: MapLibre's `gl_Position.w`) and its
    /// depth (output pixels along the view direction). The camera is
    /// `distance` from the centre, tilted by the pitch towards the bottom of
    /// the image, so depth = D − sin p · dy − cos p · z, and the image point is
    /// the centre plus D · (dx, cos p · dy − sin p · z) / depth; w is the
    /// depth. At z = 0 this is ``project(_:)``. Valid at pitch 0 too (a camera
    /// straight above, whose perspective still shows tall things' sides away
    /// from the centre).
    ///
    /// Under ``axonometric`` the height leaves the divide: w is the ground
    /// point's depth, and the point moves from its ground point's image by
    /// (xSkew, −ySkew) · z / w · (width, height) / 2.
    @inline(__always)
    func project(_ p: Point, elevation z: Double) -> (point: Point, w: Double, depth: Double) {
        let (c, s) = (cosPitch, sinPitch)
        let dx = p.x - width / 2, dy = p.y - height / 2
        let depth = distance - s * dy - c * z
        guard let axonometric else {
            return (Point(width / 2 + distance * dx / depth, height / 2 + distance * (c * dy - s * z) / depth), depth, depth)
        }
        let w = distance - s * dy
        let lift = z / w
        return (Point(width / 2 + distance * dx / w + axonometric.xSkew * lift * width / 2,
                      height / 2 + distance * c * dy / w - axonometric.ySkew * lift * height / 2), w, depth)
    }

    /// GL's window depth (0 at the near plane, 1 at the far) of a point of
    /// clip `w` and `depth` (``project(_:elevation:)``): MapLibre's perspective
    /// matrix gives clip z = ((f + n) · depth − 2 f n) / (f − n), divided by w.
    /// Affine in the image for a planar face, so it is interpolated as is.
    @inline(__always)
    func windowDepth(w: Double, depth: Double) -> Double {
        let (n, f) = (nearDepth, farDepth)
        return ((f + n) * depth - 2 * f * n + (f - n) * w) / (2 * (f - n) * w)
    }

    /// MapLibre's near plane: the least depth drawn (a fiftieth of the image's height).
    var nearDepth: Double { height / 50 }
}
