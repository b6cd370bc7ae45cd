import Raster

/// Draws a snapshot's own paths, then the place labels, then its markers over
/// whatever map is beneath (labels were placed clear of the markers).
enum MapOverlays {
    static func draw(_ options: MapSnapshotOptions, viewport: MapViewport, labels: [PlaceLabel] = [], on canvas: inout Canvas) throws {
        for path in options.paths {
            let points = MapViewport.unwrapLongitudes(path.points)
            for copy in viewport.project(points, tolerance: 0) {
                if let fill = path.fill { try canvas.fill(Path(polygon: copy), color: fill) }
                if path.width > 0 {
                    let shape = path.isClosed ? Path(polygon: copy) : Path(polyline: copy)
                    try canvas.stroke(shape, color: path.color, style: StrokeStyle(width: path.width * options.scale, join: .round, cap: .round))
                }
            }
        }
        try PlaceLabel.draw(labels, on: &canvas, palette: options.style.palette, scale: options.scale)
        for marker in options.markers {
            try MarkerPin.draw(marker, at: viewport.pixel(for: marker.coordinate), scale: options.scale, on: &canvas)
        }
    }
}
