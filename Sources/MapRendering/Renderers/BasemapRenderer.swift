import Foundation
import Raster

/// Draws map snapshots from the embedded Natural Earth basemap: water, land
/// (each country in its colour class), borders, coastlines, then the
/// snapshot's paths and markers. Offline, deterministic, thread-safe.
public struct BasemapRenderer: Sendable {
    public init() {}

    /// Renders `options` (validated here) into a bitmap of
    /// `pixelWidth × pixelHeight`. `checkCancellation` is called between
    /// layers; whatever it throws ends the render.
    public func render(_ options: MapSnapshotOptions, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try options.validate()
        let viewport = MapViewport(options: options)
        let palette = options.style.palette
        var canvas = try Canvas(width: viewport.pixelWidth, height: viewport.pixelHeight, background: palette.water)
        try checkCancellation()
        try MapGeometry(viewport: viewport).draw(on: &canvas, palette: palette, scale: options.scale, checkCancellation: checkCancellation)
        try checkCancellation()

        try MapOverlays.draw(options, viewport: viewport, on: &canvas, checkCancellation: checkCancellation)
        Self.drawAttribution(Self.attribution, on: &canvas, scale: options.scale, palette: palette)
        return canvas.bitmap
    }

    /// The credit drawn in the bottom-right corner (Natural Earth is public
    /// domain and asks for none, but a map should say where it comes from).
    public static let attribution = "Natural Earth"

    /// Draws `text` in the bottom-right corner, small, on a halo.
    static func drawAttribution(_ text: String, on canvas: inout Canvas, scale: Double, palette: MapPalette) {
        let size = FixedFont.fixed6x13.size(of: text)
        let margin = Int(3 * scale)
        let bitmapWidth = canvas.width, bitmapHeight = canvas.height
        guard size.width + 2 * margin <= bitmapWidth, size.height + 2 * margin <= bitmapHeight else { return }
        canvas.draw(text: text, at: bitmapWidth - size.width - margin, bitmapHeight - size.height - margin,
                    color: palette.text, halo: palette.halo)
    }

    /// Whether a shape with these geographic bounds can reach the image (any copy).
    static func mayBeVisible(_ bounds: GeoBounds?, in viewport: MapViewport) -> Bool {
        guard let bounds else { return false }
        let top = viewport.unwrappedPixel(for: GeoCoordinate(latitude: bounds.maximumLatitude, longitude: bounds.minimumLongitude))
        let bottom = viewport.unwrappedPixel(for: GeoCoordinate(latitude: bounds.minimumLatitude, longitude: bounds.maximumLongitude))
        guard bottom.y >= -2, top.y <= Double(viewport.pixelHeight) + 2 else { return false }
        return !viewport.copyOffsets(minX: top.x - 2, maxX: bottom.x + 2).isEmpty
    }

    /// The ring or line in pixels, once per copy of the world it shows in,
    /// dropping vertices within a third of a pixel of the last one kept.
    static func project(_ coordinates: [GeoCoordinate], in viewport: MapViewport, simplify: Bool = true) -> [[Point]] {
        var points: [Point] = []
        points.reserveCapacity(coordinates.count)
        var minX = Double.infinity, maxX = -Double.infinity
        for coordinate in coordinates {
            let p = viewport.unwrappedPixel(for: coordinate)
            if simplify, let last = points.last, abs(p.x - last.x) + abs(p.y - last.y) < 0.33 { continue }
            points.append(Point(p.x, p.y))
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
        }
        guard points.count >= 2 else { return [] }
        return viewport.copyOffsets(minX: minX, maxX: maxX).map { offset in
            offset == 0 ? points : points.map { Point($0.x + offset, $0.y) }
        }
    }
}
