/// A GeoJSON geometry (RFC 7946 §3.1), positions as ``GeoCoordinate``s
/// (a third, altitude, number is read and dropped).
public indirect enum GeoJSONGeometry: Equatable, Sendable {
    /// `Point`.
    case point(GeoCoordinate)
    /// `MultiPoint`.
    case multiPoint([GeoCoordinate])
    /// `LineString`.
    case lineString([GeoCoordinate])
    /// `MultiLineString`: one array per line.
    case multiLineString([[GeoCoordinate]])
    /// `Polygon`: the exterior ring, then its holes.
    case polygon([[GeoCoordinate]])
    /// `MultiPolygon`: one array of rings per polygon.
    case multiPolygon([[[GeoCoordinate]]])
    /// `GeometryCollection`.
    case geometryCollection([GeoJSONGeometry])

    /// The number of positions, over every part.
    public var vertexCount: Int {
        switch self {
        case .point: return 1
        case .multiPoint(let points), .lineString(let points): return points.count
        case .multiLineString(let lines), .polygon(let lines): return lines.reduce(0) { $0 + $1.count }
        case .multiPolygon(let polygons): return polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        case .geometryCollection(let members): return members.reduce(0) { $0 + $1.vertexCount }
        }
    }
}
