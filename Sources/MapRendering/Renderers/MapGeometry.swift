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
    /// Lakes: shores and islands' shores, filled even-odd in the water colour.
    public var lakes = Path()
    /// First-level administrative boundaries (states, provinces, oblasts), from zoom 4.
    public var regionBorders = Path()
    /// River centre lines, stroked in the water colour.
    public var rivers = Path()
    /// The rivers' stroke width in points: thin at continent scale, wider zoomed in.
    var riverWidth: Double

    /// Projects the basemap at the detail the viewport's zoom wants.
    public init(viewport: MapViewport) throws {
        let basemap = try Basemap.load(.forZoom(viewport.zoom))
        riverWidth = MapGeometry.riverWidth(zoom: viewport.zoom)
        var byClass: [Int: Path] = [:]
        for country in basemap.countries where viewport.mayShow(country.bounds) {
            var countryPath = Path()
            for polygon in country.polygons {
                for (ringIndex, ring) in polygon.enumerated() {
                    for copy in viewport.project(ring, ring: true) {
                        let path = Path(polygon: copy)
                        countryPath.append(path)
                        borders.append(path)
                        if ringIndex == 0 { land.append(Path(polygon: Path.counterClockwise(copy))) }
                    }
                }
            }
            byClass[country.colorClass, default: Path()].append(countryPath)
        }
        countriesByClass = byClass.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (line, bounds) in zip(basemap.coastlines, basemap.coastlineBounds) where viewport.mayShow(bounds) {
            for copy in viewport.project(line) { coastlines.append(Path(polyline: copy)) }
        }
        for lake in basemap.lakes where viewport.mayShow(lake.bounds) {
            for ring in lake.rings {
                for copy in viewport.project(ring, ring: true) where copy.count >= 3 { lakes.append(Path(polygon: copy)) }
            }
        }
        for (line, bounds) in zip(basemap.regionBorders, basemap.regionBorderBounds) where viewport.mayShow(bounds) {
            // Hairlines: a pixel's detail is all they can show.
            for copy in viewport.project(line, tolerance: 1) { regionBorders.append(Path(polyline: copy)) }
        }
        for (line, bounds) in zip(basemap.rivers, basemap.riverBounds) where viewport.mayShow(bounds) {
            for copy in viewport.project(line, tolerance: 0.5) { rivers.append(Path(polyline: copy)) }
        }
    }

    /// Draws the basemap layers: land, countries by class, region borders, lakes,
    /// rivers, country borders, coastlines (lake shores drawn as coastlines).
    public func draw(on canvas: inout Canvas, palette: MapPalette, scale: Double, checkCancellation: () throws -> Void = {}) throws {
        try canvas.fill(land, color: palette.land(colorClass: 1))
        try checkCancellation()
        for (colorClass, path) in countriesByClass {
            try canvas.fill(path, color: palette.land(colorClass: colorClass), rule: .evenOdd)
        }
        // Region borders under the lakes (Natural Earth runs them across lakes), country borders over.
        try canvas.stroke(regionBorders, color: palette.regionBorder, style: MapGeometry.regionBorderStyle(scale: scale))
        try checkCancellation()
        try canvas.fill(lakes, color: palette.water, rule: .evenOdd)
        try canvas.stroke(rivers, color: palette.water, style: MapGeometry.riverStyle(width: riverWidth, scale: scale))
        try canvas.stroke(borders, color: palette.border, style: MapGeometry.borderStyle(scale: scale))
        try checkCancellation()
        try canvas.stroke([coastlines, lakes], color: palette.coastline, style: MapGeometry.coastlineStyle(scale: scale))
    }

    /// Border strokes: 0.6 points wide.
    static func borderStyle(scale: Double) -> StrokeStyle { StrokeStyle(width: 0.6 * scale, join: .round, cap: .round) }
    /// Region border strokes: 0.5 points wide, bevelled (round joins on a hairline cost and show nothing).
    static func regionBorderStyle(scale: Double) -> StrokeStyle { StrokeStyle(width: 0.5 * scale, join: .bevel, cap: .butt) }
    /// River strokes: `width` points, round joins and caps (a river bends).
    static func riverStyle(width: Double, scale: Double) -> StrokeStyle {
        StrokeStyle(width: width * scale, join: .round, cap: .round)
    }
    /// The river width at `zoom`: 0.6 points below zoom 5, 1 to zoom 7, then 1.5
    /// (the 1:50m lines are coarse; wider lines would show their corners).
    static func riverWidth(zoom: Double) -> Double { zoom < 5 ? 0.6 : (zoom < 8 ? 1 : 1.5) }
    /// Coastline strokes: 0.8 points wide.
    static func coastlineStyle(scale: Double) -> StrokeStyle { StrokeStyle(width: 0.8 * scale, join: .round, cap: .round) }
}
