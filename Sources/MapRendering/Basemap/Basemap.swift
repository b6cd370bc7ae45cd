/// The embedded world basemap: Natural Earth countries (filled), coastlines,
/// lakes, rivers and first-level administrative boundaries (states, provinces,
/// oblasts), public domain, at two levels of detail. Decoded once, lazily,
/// on first use, and shared (read-only) by every render.
public struct Basemap: Sendable {
    /// Which Natural Earth scale to use: 1:110m for world and continent views,
    /// 1:50m when zoomed in.
    public enum Detail: String, CaseIterable, Sendable {
        /// 1:110m, about 10,600 country vertices.
        case low
        /// 1:50m, about 100,000 country vertices.
        case high

        /// The detail a map at `zoom` wants: 1:50m from zoom 4 up.
        public static func forZoom(_ zoom: Double) -> Detail { zoom >= 4 ? .high : .low }
    }

    /// One country: its ISO 3166 alpha-3 code, a colour class 1–7 that differs
    /// from its neighbours' (Natural Earth's `mapcolor7`), and its polygons,
    /// each an outer ring followed by its holes.
    public struct Country: Sendable {
        /// ISO 3166-1 alpha-3 (or, where Natural Earth has none, the name's first three letters).
        public let code: String
        /// 1–7, different from every neighbour's.
        public let colorClass: Int
        /// Polygons, each an outer ring followed by its holes.
        public let polygons: [[[GeoCoordinate]]]
        /// The box around the outer rings, for culling.
        public let bounds: GeoBounds?
    }

    /// One lake: its shore, then the shores of its islands.
    public struct Lake: Sendable {
        /// The outer ring first, then the islands' rings.
        public let rings: [[GeoCoordinate]]
        /// The box around the outer ring, for culling.
        public let bounds: GeoBounds?
    }

    /// Which scale these shapes come from.
    public let detail: Detail
    /// Every country, filled by colour class.
    public let countries: [Country]
    /// Coastline polylines.
    public let coastlines: [[GeoCoordinate]]
    /// The box around each of `coastlines`, for culling.
    let coastlineBounds: [GeoBounds?]
    /// Lakes large enough to show at this detail (Natural Earth 1:10m, simplified).
    public let lakes: [Lake]
    /// First-level administrative boundaries as polylines (only at `.high` detail).
    public let regionBorders: [[GeoCoordinate]]
    /// The box around each of `regionBorders`, for culling.
    let regionBorderBounds: [GeoBounds?]
    /// Rivers as centre lines (Natural Earth 1:50m; at `.low` detail only the longest).
    public let rivers: [[GeoCoordinate]]
    /// The box around each of `rivers`, for culling.
    let riverBounds: [GeoBounds?]

    /// The basemap at `detail`, decoded on first use. Throws only if the
    /// embedded data were damaged (a build problem, reported rather than trapped).
    public static func load(_ detail: Detail) throws -> Basemap {
        switch detail {
        case .low: return try low.get()
        case .high: return try high.get()
        }
    }

    // Static lets are initialised once, thread-safely, on first access.
    private static let low = Result { try BasemapData.decode(base64: BasemapData.scale110m, layers: BasemapLayersData.scale110m, detail: .low) }
    private static let high = Result { try BasemapData.decode(base64: BasemapData.scale50m, layers: BasemapLayersData.scale50m, detail: .high) }

    init(detail: Detail, countries: [Country], coastlines: [[GeoCoordinate]], lakes: [Lake], regionBorders: [[GeoCoordinate]],
         rivers: [[GeoCoordinate]]) {
        self.detail = detail
        self.countries = countries
        self.coastlines = coastlines
        coastlineBounds = coastlines.map { GeoBounds($0) }
        self.lakes = lakes
        self.regionBorders = regionBorders
        regionBorderBounds = regionBorders.map { GeoBounds($0) }
        self.rivers = rivers
        riverBounds = rivers.map { GeoBounds($0) }
    }
}
