extension VectorTileSource {
    /// What a snapshot framed by `viewport` will lack because the tiles have
    /// no data there: a view outside their ``VectorTileProviding/bounds``, a
    /// view in which that area is under a few pixels (a city's extract at
    /// `zoom=3`), or a zoom below their lowest. Empty when the view shows data
    /// (or the tiles state no bounds). The snapshot is still drawn (the
    /// style's background, the overlays, the credit); the warning says why it
    /// is blank, in the response's `Warning` header.
    public func coverageWarnings(for viewport: MapViewport) -> [String] {
        var warnings: [String] = []
        // The zoom tiles are read at: the style zoom (MapLibre's 512-pixel tiles).
        let tileZoom = Int(max(0, viewport.zoom - 1).rounded(.down))
        let zooms = tiles.zoomRange
        if tileZoom < zooms.lowerBound {
            warnings.append("the view's zoom \(StyleNumberFormat.string(viewport.zoom)) reads tiles of zoom \(tileZoom), "
                            + "below the tiles' lowest zoom \(zooms.lowerBound) (they have \(zooms.lowerBound)–\(zooms.upperBound))")
        }
        guard let bounds = tiles.bounds else { return warnings }
        let view = GeoBounds.checked(west: viewport.coordinate(atPixel: 0, 0).longitude, south: viewport.coordinate(atPixel: 0, Double(viewport.pixelHeight)).latitude,
                                     east: viewport.coordinate(atPixel: Double(viewport.pixelWidth), 0).longitude, north: viewport.coordinate(atPixel: 0, 0).latitude)
        guard viewport.mayShow(bounds) else {
            let shown = view.map { "the view (\($0.text))" } ?? "the view"
            warnings.append("\(shown) shows none of the tiles' data (\(bounds.text)): only the style's background is drawn")
            return warnings
        }
        let corner = viewport.unwrappedPixel(for: GeoCoordinate(latitude: bounds.maximumLatitude, longitude: bounds.minimumLongitude))
        let opposite = viewport.unwrappedPixel(for: GeoCoordinate(latitude: bounds.minimumLatitude, longitude: bounds.maximumLongitude))
        let width = opposite.x - corner.x, height = opposite.y - corner.y
        if max(width, height) < Self.smallestVisibleData {
            warnings.append(String(format: "the tiles' data (%@) is %.1f × %.1f pixels in this view at zoom %@: zoom in to see it",
                                   bounds.text, width, height, StyleNumberFormat.string(viewport.zoom)))
        }
        return warnings
    }

    /// Data spanning fewer pixels than this (both ways) is too small to see.
    static let smallestVisibleData = 8.0
}
