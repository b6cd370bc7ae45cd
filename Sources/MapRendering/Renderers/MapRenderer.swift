import Raster

/// Something that draws map snapshots: the embedded basemap (`BasemapRenderer`)
/// or raster tiles (`TileMapRenderer`), and whatever comes later (vector tiles).
///
/// A renderer implements `render(_:in:checkCancellation:)` for options already
/// validated and framed; callers with unchecked options use `render(_:checkCancellation:)`,
/// which validates them first. Either way validation runs once per snapshot.
public protocol MapRenderer: Sendable {
    /// Draws `options` into a `viewport.pixelWidth × viewport.pixelHeight` bitmap.
    /// `options` must be valid (`validate()`) and `viewport` be `MapViewport(options:)`.
    /// `checkCancellation` is called between layers; whatever it throws ends the render.
    func render(_ options: MapSnapshotOptions, in viewport: MapViewport, checkCancellation: () throws -> Void) throws -> Bitmap

    /// Draws as `render(_:in:checkCancellation:)`, stopping when
    /// `cancellation` fires. A renderer that waits (for tiles) implements it
    /// to be woken by the cancellation instead of polling; by default it
    /// polls `cancellation.check` between layers.
    func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation) throws -> Bitmap
}

extension MapRenderer {
    /// Draws with `cancellation.check` as the `checkCancellation` closure.
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation) throws -> Bitmap {
        try render(options, in: viewport, checkCancellation: cancellation.check)
    }
}

extension MapRenderer {
    /// Validates `options` (throwing `MapOptionError`), frames them and draws them.
    public func render(_ options: MapSnapshotOptions, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try options.validate()
        return try render(options, in: MapViewport(options: options), checkCancellation: checkCancellation)
    }
}
