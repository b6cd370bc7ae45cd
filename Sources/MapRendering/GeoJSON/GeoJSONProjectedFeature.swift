import Foundation

/// A feature projected to the unit Web Mercator square (0…1 both ways, y
/// down) and prepared for tiling as geojson-vt prepares it: every vertex
/// carries its importance (the squared distance Douglas–Peucker found for it,
/// 1 for ends and for points made by clipping), so a tile at any zoom keeps
/// the vertices that matter at its tolerance without simplifying again.
struct GeoJSONProjectedFeature: Sendable {
    /// What the feature draws as, and so how its parts clip.
    enum Shape: Sendable {
        case points, lines, polygons
    }

    /// A vertex: position and importance.
    struct Vertex: Sendable {
        var x: Double
        var y: Double
        var importance: Double
    }

    /// A line or ring, and its size before clipping (a line's length, a
    /// ring's area) by which a tile drops what is too small to see. A line
    /// piece also knows where it lies on the whole line (`start`…`end`, in
    /// the whole line's length from its beginning), as geojson-vt tracks it
    /// for `lineMetrics`.
    struct Ring: Sendable {
        var vertices: [Vertex]
        var size: Double
        var start: Double
        var end: Double

        init(vertices: [Vertex], size: Double, start: Double = 0, end: Double? = nil) {
            self.vertices = vertices
            self.size = size
            self.start = start
            self.end = end ?? size
        }
    }

    var shape: Shape
    /// Points: one group of one ring holding every point. Lines: a group of
    /// one ring per line. Polygons: a group per polygon, its exterior ring first.
    var groups: [[Ring]]
    var id: UInt64?
    var properties: [String: VectorTileValue]
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    init(shape: Shape, groups: [[Ring]], id: UInt64?, properties: [String: VectorTileValue]) {
        self.shape = shape
        self.groups = groups
        self.id = id
        self.properties = properties
        updateBounds()
    }

    mutating func updateBounds() {
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        for group in groups {
            for ring in group {
                for vertex in ring.vertices {
                    minX = min(minX, vertex.x); maxX = max(maxX, vertex.x)
                    minY = min(minY, vertex.y); maxY = max(maxY, vertex.y)
                }
            }
        }
    }

    /// The features `feature` tiles as (a GeometryCollection gives one per
    /// member), projected and simplified at `squaredTolerance` (unit square).
    static func make(_ feature: GeoJSONFeature, squaredTolerance: Double) -> [GeoJSONProjectedFeature] {
        guard let geometry = feature.geometry else { return [] }
        return make(geometry, id: feature.id?.tileID, properties: feature.properties, squaredTolerance: squaredTolerance)
    }

    private static func make(_ geometry: GeoJSONGeometry, id: UInt64?, properties: [String: VectorTileValue],
                             squaredTolerance: Double) -> [GeoJSONProjectedFeature] {
        func line(_ points: [GeoCoordinate], polygon: Bool) -> Ring {
            project(points, polygon: polygon, squaredTolerance: squaredTolerance)
        }
        let shape: Shape, groups: [[Ring]]
        switch geometry {
        case .point(let point):
            shape = .points; groups = [[pointRing([point])]]
        case .multiPoint(let points):
            shape = .points; groups = [[pointRing(points)]]
        case .lineString(let points):
            shape = .lines; groups = [[line(points, polygon: false)]]
        case .multiLineString(let lines):
            shape = .lines; groups = lines.map { [line($0, polygon: false)] }
        case .polygon(let rings):
            shape = .polygons; groups = [rings.map { line($0, polygon: true) }]
        case .multiPolygon(let polygons):
            shape = .polygons; groups = polygons.map { $0.map { line($0, polygon: true) } }
        case .geometryCollection(let members):
            return members.flatMap { make($0, id: id, properties: properties, squaredTolerance: squaredTolerance) }
        }
        let kept = groups.map { $0.filter { !$0.vertices.isEmpty } }.filter { !$0.isEmpty }
        guard !kept.isEmpty else { return [] }
        return [GeoJSONProjectedFeature(shape: shape, groups: kept, id: id, properties: properties)]
    }

    static func projectX(_ longitude: Double) -> Double { longitude / 360 + 0.5 }

    static func projectY(_ latitude: Double) -> Double {
        let sine = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    private static func pointRing(_ points: [GeoCoordinate]) -> Ring {
        Ring(vertices: points.map { Vertex(x: projectX($0.longitude), y: projectY($0.latitude), importance: 0) }, size: 0)
    }

    /// A line or ring projected, its vertices' importance set by
    /// Douglas–Peucker, and its size (length, or absolute area) measured.
    private static func project(_ points: [GeoCoordinate], polygon: Bool, squaredTolerance: Double) -> Ring {
        var vertices = points.map { Vertex(x: projectX($0.longitude), y: projectY($0.latitude), importance: 0) }
        var size = 0.0
        for i in vertices.indices.dropFirst() {
            let a = vertices[i - 1], b = vertices[i]
            size += polygon ? (a.x * b.y - b.x * a.y) / 2 : ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        }
        if !vertices.isEmpty {
            vertices[0].importance = 1
            GeoJSONSimplifier.markImportance(&vertices, squaredTolerance: squaredTolerance)
            vertices[vertices.count - 1].importance = 1
        }
        return Ring(vertices: vertices, size: abs(size))
    }
}
