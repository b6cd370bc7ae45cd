import Foundation
import Raster

/// How a pitched camera draws symbols, as MapLibre's `symbol_sdf` and
/// `symbol_icon` shaders do: a symbol facing the image (`*-pitch-alignment:
/// viewport`) is a billboard at its anchor's image point; one lying on the map
/// (`map`, or `auto` with `*-rotation-alignment: map`) has its quads on the
/// map plane, drawn through the camera's full projection (foreshortened). Both
/// are scaled by MapLibre's `perspective_ratio`, `clamp(0.5 + 0.5 · r, 0, 4)`,
/// r being the camera-to-anchor distance over the camera-to-centre distance
/// on the map, and its inverse facing the image: so labels far away are
/// drawn smaller, but less than the ground beneath them.
enum SymbolPitch {
    /// MapLibre's `perspective_ratio` for a symbol at image point `p`: lying on
    /// the map (`onMap`) or facing the image; 1 without a pitch.
    static func perspectiveRatio(at p: Point, pitch: PitchProjection?, onMap: Bool) -> Double {
        guard let pitch else { return 1 }
        let depth = pitch.depthRatio(atPlaneY: pitch.unproject(p).y)
        guard depth > 0, depth.isFinite else { return 1 }
        return min(max(0.5 + 0.5 * (onMap ? depth : 1 / depth), 0), 4)
    }

    /// Where a symbol's quads lie: offsets (output pixels, already turned and
    /// scaled) about an anchor on the image, or about an anchor on the map plane
    /// of a pitched camera, whose projection puts them on the image.
    struct QuadFrame {
        /// The anchor: an image point, or a point of the map plane with ``onMap``.
        let anchor: Point
        /// The camera when the quads lie on the map; nil facing the image.
        let onMap: PitchProjection?
        /// The pitch's cosine: MapLibre's `u_gamma_scale` over `cameraToCenterDistance`.
        private let cosPitch: Double

        init(anchor: Point, onMap: PitchProjection?) {
            self.anchor = anchor
            self.onMap = onMap
            cosPitch = onMap.map { cos($0.pitch * .pi / 180) } ?? 1
        }

        /// The image point of the offset (`x`, `y`) from the anchor (on the map:
        /// held in front of the near plane).
        @inline(__always)
        func image(_ x: Double, _ y: Double) -> Point? {
            guard let onMap else { return Point(anchor.x + x, anchor.y + y) }
            let p = onMap.project(Point(anchor.x + x, min(anchor.y + y, onMap.nearY)))
            return p.x.isFinite && p.y.isFinite ? p : nil
        }

        /// The offset from the anchor of the image point (`x`, `y`), and the
        /// factor the edge's gamma is scaled by there (on the map, MapLibre's
        /// `gl_Position.w / u_gamma_scale`: the depth over the centre's, over the
        /// pitch's cosine; else 1). Nil above the horizon.
        @inline(__always)
        func local(_ x: Double, _ y: Double) -> (x: Double, y: Double, gammaScale: Double)? {
            guard let onMap else { return (x - anchor.x, y - anchor.y, 1) }
            guard onMap.showsGround(row: y) else { return nil }
            let p = onMap.unproject(Point(x, y))
            return (p.x - anchor.x, p.y - anchor.y, onMap.depthRatio(atPlaneY: p.y) / cosPitch)
        }
    }
}

extension SymbolIconPlacer.PlacedIcon {
    /// The icon seen by a pitched camera at image point `p` (its ``anchor``
    /// already there): scaled by MapLibre's perspective ratio, laid on the map
    /// plane when `onMap`, and, when turned with the map (`mapAngle`: the map's
    /// angle it holds and the tile's x axis's angle on the image at `p`),
    /// facing the image turned as the map looks there. Returns `box` (its
    /// collision box about `p`) scaled as MapLibre scales a pitched symbol's box.
    mutating func pitch(_ pitch: PitchProjection, at p: Point, onMap: Bool, mapAngle: (map: Double, image: Double)?, box: LabelBox) -> LabelBox {
        let ratio = SymbolPitch.perspectiveRatio(at: p, pitch: pitch, onMap: onMap)
        quads = quads.map { (Point($0.topLeft.x * ratio, $0.topLeft.y * ratio), Point($0.bottomRight.x * ratio, $0.bottomRight.y * ratio), $0.tex) }
        size *= ratio
        // MapLibre samples a pitched icon linearly.
        linear = true
        if onMap {
            self.onMap = pitch
            anchor = pitch.unproject(anchor)
        } else if let mapAngle {
            angle += mapAngle.image - mapAngle.map
        }
        return box.scaled(by: SymbolPitch.perspectiveRatio(at: p, pitch: pitch, onMap: false))
    }
}
