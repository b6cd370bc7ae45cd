import Raster

/// A snapshot's basemap, projected: every visible shape already in output
/// pixels, one path per layer. Building it is the geographic half of a render
/// (culling, projecting, wrapping the world); drawing it is the raster half.
public struct MapGeometry: Sendable {
    /// Every country's outer rings, wound alike, for the seamless land pass.
    public var land = Path()
    /// Every country's rings by Natural Earth colour class, drawn even-odd.
    public var countriesByClass: [(colorClass: Int, path: Path)] = []
    /// All country rings, stroked as borders.
    public var borders = Path()
    /// Coastline polylines.
    public var coastlines = Path()

    /// Projects the basemap at the detail the viewport's zoom wants.
    public init(viewport: MapViewport) throws {
        let basemap = try Basemap.load(.forZoom(viewport.zoom))
        var byClass: [Int: Path] = [:]
        for country in basemap.countries where BasemapRenderer.mayBeVisible(country.bounds, in: viewport) {
            var countryPath = Path()
            for polygon in country.polygons {
                for (ringIndex, ring) in polygon.enumerated() {
                    for copy in BasemapRenderer.project(ring, in: viewport) {
                        countryPath.append(Path(polygon: copy))
                        borders.append(Path(polygon: copy))
                        if ringIndex == 0 { land.append(Path(polygon: Path.counterClockwise(copy))) }
                    }
                }
            }
            byClass[country.colorClass, default: Path()].append(countryPath)
        }
        countriesByClass = byClass.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for line in basemap.coastlines {
            for copy in BasemapRenderer.project(line, in: viewport) { coastlines.append(Path(polyline: copy)) }
        }
    }

    /// Draws the basemap layers: land, countries by class, borders, coastlines.
    public func draw(on canvas: inout Canvas, palette: MapPalette, scale: Double, checkCancellation: () throws -> Void = {}) throws {
        try canvas.fill(land, color: palette.land(colorClass: 1))
        try checkCancellation()
        for (colorClass, path) in countriesByClass {
            try canvas.fill(path, color: palette.land(colorClass: colorClass), rule: .evenOdd)
        }
        try canvas.stroke(borders, color: palette.border, style: MapGeometry.borderStyle(scale: scale))
        try checkCancellation()
        try canvas.stroke(coastlines, color: palette.coastline, style: MapGeometry.coastlineStyle(scale: scale))
    }

    /// Border strokes: 0.6 points wide.
    public static func borderStyle(scale: Double) -> StrokeStyle { StrokeStyle(width: 0.6 * scale, join: .round, cap: .round) }
    /// Coastline strokes: 0.8 points wide.
    public static func coastlineStyle(scale: Double) -> StrokeStyle { StrokeStyle(width: 0.8 * scale, join: .round, cap: .round) }
}
