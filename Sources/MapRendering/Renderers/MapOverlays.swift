import Raster

/// Draws a snapshot's own paths, then the place labels, then its markers over
/// whatever map is beneath (labels were placed clear of the markers).
enum MapOverlays {
    /// Draws every path, then `labels`, then every marker; `checkCancellation`
    /// is called for each piece of a path, before drawing it, and every 16 markers.
    static func draw(_ options: MapSnapshotOptions, viewport: MapViewport, labels: [PlaceLabel] = [], on canvas: inout Canvas,
                     checkCancellation: () throws -> Void = {}) throws {
        for path in options.paths {
            // Every piece and copy joins one shape, filled and stroked once: one
            // pass of the rasteriser over the path's rows, however many pieces.
            var area = Path(), outline = Path()
            for piece in pieces(of: path.points, nearLongitude: viewport.center.longitude) {
                try checkCancellation()
                for copy in viewport.project(piece, tolerance: 0, ring: path.fill != nil || path.isClosed) {
                    if path.fill != nil { area.append(Path(polygon: copy)) }
                    outline.append(path.isClosed ? Path(polygon: copy) : Path(polyline: copy))
                }
            }
            try checkCancellation()
            if let fill = path.fill { try canvas.fill(area, color: fill) }
            if path.width > 0 {
                try canvas.stroke(outline, color: path.color, style: StrokeStyle(width: path.width * options.scale, join: .round, cap: .round))
            }
        }
        try PlaceLabel.draw(labels, on: &canvas, palette: options.style.palette, scale: options.scale)
        for (index, marker) in options.markers.enumerated() {
            if index % 16 == 0 { try checkCancellation() }
            let tip = viewport.pixel(for: marker.coordinate)
            // Behind a pitched camera a marker is not drawn.
            guard tip.x.isFinite, tip.y.isFinite else { continue }
            try MarkerPin.draw(marker, at: tip, scale: options.scale, on: &canvas)
        }
    }

    /// The path with each step taken the short way round (consecutive
    /// longitudes differ by at most 180°, so a path across the antimeridian
    /// is drawn across it), cut into pieces that each stay within 540° of the
    /// view's centre longitude: a path that keeps stepping east (0, 120, 240,
    /// …) is wrapped back a world at a time instead of spanning thousands of
    /// worlds, each of which the view would otherwise draw a copy for. A piece
    /// spans at most three worlds, so it has a handful of copies however long
    /// the path.
    static func pieces(of points: [GeoCoordinate], nearLongitude center: Double) -> [[GeoCoordinate]] {
        var pieces: [[GeoCoordinate]] = []
        var piece: [GeoCoordinate] = []
        var previous: Double?
        for point in points {
            var longitude = point.longitude
            if let previous {
                // `previous` stays within 540° of the centre and `longitude` within 180° of 0: one turn suffices.
                longitude += 360 * ((previous - longitude) / 360).rounded()
                piece.append(GeoCoordinate(latitude: point.latitude, longitude: longitude))
                let drift = ((longitude - center) / 360).rounded(.towardZero)
                if abs(longitude - center) > 360 {
                    // Wrap back a world: this piece ends here, the next begins at the same point, shifted.
                    pieces.append(piece)
                    longitude -= 360 * drift
                    piece = [GeoCoordinate(latitude: point.latitude, longitude: longitude)]
                }
            } else {
                piece.append(point)
            }
            previous = longitude
        }
        if piece.count >= 2 { pieces.append(piece) }
        return pieces
    }
}
