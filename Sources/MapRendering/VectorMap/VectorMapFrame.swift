import Foundation

/// Where a camera's view lies in the world and which source tiles cover it,
/// in output pixels.
struct VectorMapFrame {
    let pixelWidth: Int
    let pixelHeight: Int
    /// The source zoom the tiles come from.
    let tileZoom: Int
    /// One tile's side in output pixels.
    let tileSide: Double
    /// The view's top-left corner in world pixels.
    private let left: Double
    private let top: Double
    /// The world's side in output pixels.
    private let world: Double

    init(camera: VectorMapCamera, zoomRange: ClosedRange<Int>) {
        pixelWidth = camera.pixelWidth
        pixelHeight = camera.pixelHeight
        // MapLibre reads 512-point tiles at the floor of the style zoom.
        let wanted = Int(camera.styleZoom.rounded(.down))
        // Capped at 24 whatever a hostile header says, so the tile arithmetic stays in range.
        tileZoom = min(24, min(max(wanted, zoomRange.lowerBound), zoomRange.upperBound))
        world = WebMercator.worldSize(zoom: camera.zoom) * camera.scale
        tileSide = world / Double(1 << tileZoom)
        let latitude = min(max(camera.center.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude)
        let center = WebMercator.project(latitude: latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        left = center.x * camera.scale - Double(pixelWidth) / 2
        top = center.y * camera.scale - Double(pixelHeight) / 2
    }

    /// The Web Mercator position (0…1 across the world, y down, x not
    /// wrapped) under the output pixel position (`x`, `y`).
    func unitPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        ((left + x) / world, (top + y) / world)
    }

    /// The output pixel position of the Web Mercator position (`x`, `y`).
    func pixelPoint(unitX x: Double, unitY y: Double) -> (x: Double, y: Double) {
        (x * world - left, y * world - top)
    }

    /// The tiles covering the view (`TileCover`, the rule the raster renderer uses too).
    var cover: TileCover {
        TileCover(zoom: tileZoom, tileSide: tileSide, left: left, top: top, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }
}
