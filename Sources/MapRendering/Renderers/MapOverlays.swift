import Raster

/// Draws a snapshot's own paths and markers over whatever map is beneath.
enum MapOverlays {
    static func draw(_ options: MapSnapshotOptions, viewport: MapViewport, on canvas: inout Canvas) throws {
        for path in options.paths {
            let points = BasemapRenderer.unwrapLongitudes(path.points)
            for copy in BasemapRenderer.project(points, in: viewport, simplify: false) {
                if let fill = path.fill { try canvas.fill(Path(polygon: copy), color: fill) }
                if path.width > 0 {
                    let shape = path.isClosed ? Path(polygon: copy) : Path(polyline: copy)
                    try canvas.stroke(shape, color: path.color, style: StrokeStyle(width: path.width * options.scale, join: .round, cap: .round))
                }
            }
        }
        for marker in options.markers {
            try MarkerPin.draw(marker, at: viewport.pixel(for: marker.coordinate), scale: options.scale, on: &canvas)
        }
    }
}
