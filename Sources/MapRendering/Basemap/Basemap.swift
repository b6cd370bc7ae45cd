/// The embedded world basemap: Natural Earth countries (filled), coastlines,
/// lakes, rivers and first-level administrative boundaries (states, provinces,
/// oblasts), public domain, at two levels of detail. Decoded once, lazily,
/// on first use, and shared (read-only) by every render.
struct Basemap: Sendable {
    /// Which Natural Earth scale to use: 1:110m for world and continent views,
    /// 1:50m when zoomed in.
    enum Detail: String, CaseIterable, Sendable {
        /// 1:110m, about 10,600 country vertices.
        case low
        /// 1:50m, about 100,000 country vertices.
        case high

        /// The detail a map at `zoom` wants: 1:50m from zoom 4 up.
        static func forZoom(_ zoom: Double) -> Detail { zoom >= 4 ? .high : .low }
    }

    /// One country: its ISO 3166 alpha-3 code, a colour class 1–7 that differs
    /// from its neighbours' (Natural Earth's `mapcolor7`), and its polygons,
    /// each an outer ring followed by its holes.
    struct Country: Sendable {
        /// ISO 3166-1 alpha-3 (or, where Natural Earth has none, the name's first three letters).
        let code: String
        /// 1–7, different from every neighbour's.
        let colorClass: Int
        /// Polygons, each an outer ring followed by its holes.
        let polygons: [[[GeoCoordinate]]]
        /// The box around the outer rings, for culling.
        let bounds: GeoBounds?
    }

    /// One lake: its shore, then the shores of its islands.
    struct Lake: Sendable {
        /// The outer ring first, then the islands' rings.
        let rings: [[GeoCoordinate]]
        /// The box around the outer ring, for culling.
        let bounds: GeoBounds?
    }

    /// Which scale these shapes come from.
    let detail: Detail
    /// Every country, filled by colour class.
    let countries: [Country]
    /// Coastline polylines.
    let coastlines: [[GeoCoordinate]]
    /// The box around each of `coastlines`, for culling.
    let coastlineBounds: [GeoBounds?]
    /// Lakes large enough to show at this detail (Natural Earth 1:10m, simplified).
    let lakes: [Lake]
    /// First-level administrative boundaries as polylines (only at `.high` detail).
    let regionBorders: [[GeoCoordinate]]
    /// The box around each of `regionBorders`, for culling.
    let regionBorderBounds: [GeoBounds?]
    /// Rivers as centre lines (Natural Earth 1:50m; at `.low` detail only the longest).
    let rivers: [[GeoCoordinate]]
    /// The box around each of `rivers`, for culling.
    let riverBounds: [GeoBounds?]

    /// The basemap at `detail`, decoded on first use. Throws only if the
    /// embedded data were damaged (a build problem, reported rather than trapped).
    static func load(_ detail: Detail) throws -> Basemap {
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
