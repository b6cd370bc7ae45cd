/// The polygons of a `["within", geojson]` expression and the test MapLibre
/// makes with them (its style-spec `within`): a point feature is within
/// when every point lies strictly inside one of the polygons, a line feature
/// when every line does and crosses none of their edges; any other feature
/// is not. The test is made in the feature's tile's world coordinates (the
/// polygons projected to Web Mercator and rounded to tile units at the
/// tile's zoom), so it agrees with MapLibre to the tile unit.
struct StyleWithinRegion: Sendable, Equatable {
    /// Polygons (exterior ring first, then holes) of longitude/latitude rings.
    let polygons: [[[GeoCoordinate]]]

    /// The region of a GeoJSON `Polygon` or `MultiPolygon`, a `Feature` of
    /// one, or a `FeatureCollection` of them; nil when it holds no polygon.
    init?(_ document: GeoJSON) {
        var polygons: [[[GeoCoordinate]]] = []
        for feature in document.features {
            switch feature.geometry {
            case .polygon(let rings)?: polygons.append(rings)
            case .multiPolygon(let more)?: polygons += more
            default: continue
            }
        }
        guard !polygons.isEmpty else { return nil }
        self.polygons = polygons
    }

    /// A point in world tile units: tile coordinates plus the tile's offset.
    private typealias WorldPoint = (x: Double, y: Double)

    /// Whether `geometry` (a feature of `type`) is within the region.
    func contains(_ geometry: StyleTileGeometry, type: StyleGeometryType) -> Bool {
        guard type == .point || type == .lineString, !geometry.parts.isEmpty else { return false }
        let extent = Double(geometry.extent), scale = Double(1 << min(max(geometry.tile.z, 0), 30)) * extent
        let region = polygons.map { rings in
            rings.map { ring in
                ring.map { WorldPoint(x: (GeoJSONProjectedFeature.projectX($0.longitude) * scale).rounded(),
                                      y: (GeoJSONProjectedFeature.projectY($0.latitude) * scale).rounded()) }
            }
        }
        let originX = Double(geometry.tile.x) * extent, originY = Double(geometry.tile.y) * extent
        let parts = geometry.parts.map { part in part.map { WorldPoint(x: Double($0.x) + originX, y: Double($0.y) + originY) } }
        switch type {
        case .point:
            return parts.allSatisfy { $0.allSatisfy { point in region.contains { Self.polygon($0, contains: point) } } }
        default:
            return parts.allSatisfy { line in region.contains { Self.polygon($0, contains: line) } }
        }
    }

    /// Whether `point` is strictly inside `rings` (even–odd over every ring; on an edge is outside).
    private static func polygon(_ rings: [[WorldPoint]], contains point: WorldPoint) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 2 {
            for j in 0..<(ring.count - 1) {
                let a = ring[j], b = ring[j + 1]
                if onSegment(point, a, b) { return false }
                if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            }
        }
        return inside
    }

    /// Whether every point of `line` is inside `rings` and none of its segments crosses their edges.
    private static func polygon(_ rings: [[WorldPoint]], contains line: [WorldPoint]) -> Bool {
        guard line.allSatisfy({ polygon(rings, contains: $0) }) else { return false }
        for i in 0..<max(0, line.count - 1) {
            for ring in rings where ring.count >= 2 {
                for j in 0..<(ring.count - 1) where crosses(line[i], line[i + 1], ring[j], ring[j + 1]) { return false }
            }
        }
        return true
    }

    private static func onSegment(_ p: WorldPoint, _ a: WorldPoint, _ b: WorldPoint) -> Bool {
        let (x1, y1, x2, y2) = (p.x - a.x, p.y - a.y, p.x - b.x, p.y - b.y)
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    /// Whether segments a–b and c–d cross (parallel ones never do: a and b are inside the polygon).
    private static func crosses(_ a: WorldPoint, _ b: WorldPoint, _ c: WorldPoint, _ d: WorldPoint) -> Bool {
        let (px, py, qx, qy) = (b.x - a.x, b.y - a.y, d.x - c.x, d.y - c.y)
        guard qx * py - qy * px != 0 else { return false }
        return twoSided(a, b, c, d) && twoSided(c, d, a, b)
    }

    /// Whether p1 and p2 lie on opposite sides of the line through q1 and q2.
    private static func twoSided(_ p1: WorldPoint, _ p2: WorldPoint, _ q1: WorldPoint, _ q2: WorldPoint) -> Bool {
        let (x3, y3) = (q2.x - q1.x, q2.y - q1.y)
        let det1 = (p1.x - q1.x) * y3 - x3 * (p1.y - q1.y)
        let det2 = (p2.x - q1.x) * y3 - x3 * (p2.y - q1.y)
        return (det1 > 0 && det2 < 0) || (det1 < 0 && det2 > 0)
    }
}

/// A feature's geometry as `within` reads it: its tile, the tile's extent
/// and its parts in tile coordinates (each point of a point feature, each line of a line feature).
public struct StyleTileGeometry: Sendable {
    /// The tile the coordinates are in.
    public var tile: TileCoordinate
    /// Tile units across the tile.
    public var extent: Int
    /// The parts, in tile units.
    public var parts: [[VectorTilePoint]]

    /// A geometry of `parts` in `tile`, `extent` units across.
    public init(tile: TileCoordinate, extent: Int, parts: [[VectorTilePoint]]) {
        self.tile = tile
        self.extent = extent
        self.parts = parts
    }
}
