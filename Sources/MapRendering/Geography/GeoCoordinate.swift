/// A point on the globe in WGS84 degrees.
public struct GeoCoordinate: Hashable, Sendable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180 (values beyond wrap around the globe).
    public var longitude: Double

    /// The latitudes a coordinate may have.
    public static let latitudeRange = -90.0...90.0
    /// The longitudes a coordinate may be given with.
    public static let longitudeRange = -180.0...180.0

    /// A coordinate in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
