import Foundation
import Raster

/// Draws map snapshots from the embedded basemap: water, land (each country
/// in its colour class), lakes, region and country borders, coastlines, then
/// the snapshot's paths, place labels and markers, and the attribution.
/// Offline, deterministic, thread-safe.
public struct BasemapRenderer: MapRenderer {
    /// A renderer (it holds nothing: the basemap and places are shared, decoded once).
    public init() {}

    /// Draws `options` framed by `viewport` (see `MapRenderer`).
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        let palette = options.style.palette
        var canvas = try Canvas(width: viewport.pixelWidth, height: viewport.pixelHeight, background: palette.water)
        try checkCancellation()
        try MapGeometry(viewport: viewport).draw(on: &canvas, palette: palette, scale: options.scale, checkCancellation: checkCancellation)
        try checkCancellation()
        let labels = try PlaceLabel.layout(options, in: viewport)
        try MapOverlays.draw(options, viewport: viewport, labels: labels, on: &canvas, checkCancellation: checkCancellation)
        if options.attribution == .corner {
            try MapAttribution.draw(Self.attribution(for: options), on: &canvas, scale: options.scale, palette: palette)
        }
        return canvas.bitmap
    }

    /// The credit drawn in the bottom-right corner: every data source the
    /// snapshot shows (Natural Earth is public domain and asks for none, but a
    /// map should say where it comes from; GeoNames' licence, CC BY 4.0, asks for it).
    public static func attribution(for options: MapSnapshotOptions) -> String {
        options.labels == .places ? "Natural Earth · GeoNames (CC BY 4.0)" : "Natural Earth"
    }
}
