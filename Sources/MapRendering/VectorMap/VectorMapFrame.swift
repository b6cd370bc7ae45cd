import Foundation

/// Where a camera's view lies in the world and which archive tiles cover it,
/// in output pixels.
struct VectorMapFrame {
    /// A tile to read and the output pixel of its top-left corner.
    struct PlacedTile {
        /// The tile in the archive (x wrapped into 0..<2^z).
        var tile: TileCoordinate
        /// Its left edge, in output pixels.
        var x: Double
        /// Its top edge, in output pixels.
        var y: Double
        /// Its side, in output pixels.
        var tileSide: Double
    }

    let pixelWidth: Int
    let pixelHeight: Int
    /// The archive zoom the tiles come from.
    let tileZoom: Int
    /// One tile's side in output pixels.
    let tileSide: Double
    /// The view's top-left corner in world pixels.
    private let left: Double
    private let top: Double

    init(camera: VectorMapCamera, header: PMTilesHeader) {
        pixelWidth = camera.pixelWidth
        pixelHeight = camera.pixelHeight
        // MapLibre reads 512-point tiles at the floor of the style zoom.
        let wanted = Int(camera.styleZoom.rounded(.down))
        // Capped at 24 whatever a hostile header says, so the tile arithmetic stays in range.
        tileZoom = min(24, min(max(wanted, header.minZoom), max(header.minZoom, header.maxZoom)))
        let world = WebMercator.worldSize(zoom: camera.zoom) * camera.scale
        tileSide = world / Double(1 << tileZoom)
        let latitude = min(max(camera.center.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude)
        let center = WebMercator.project(latitude: latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        left = center.x * camera.scale - Double(pixelWidth) / 2
        top = center.y * camera.scale - Double(pixelHeight) / 2
    }

    /// The columns and rows of tiles covering the view (rows within the world).
    private var span: (firstX: Int, lastX: Int, firstY: Int, lastY: Int) {
        let count = 1 << tileZoom
        return (Int((left / tileSide).rounded(.down)), Int(((left + Double(pixelWidth)) / tileSide).rounded(.down)),
                max(0, Int((top / tileSide).rounded(.down))), min(count - 1, Int(((top + Double(pixelHeight)) / tileSide).rounded(.down))))
    }

    /// How many tiles ``tiles()`` gives, counted without making them.
    var tileCount: Int {
        let (firstX, lastX, firstY, lastY) = span
        return firstY <= lastY && firstX <= lastX ? (lastX - firstX + 1) * (lastY - firstY + 1) : 0
    }

    /// The tiles covering the view, x wrapped so views across the antimeridian
    /// draw; rows past the poles are left out.
    func tiles() -> [PlacedTile] {
        let count = 1 << tileZoom
        let (firstX, lastX, firstY, lastY) = span
        guard firstY <= lastY, firstX <= lastX else { return [] }
        var result: [PlacedTile] = []
        for y in firstY...lastY {
            for x in firstX...lastX {
                let wrapped = ((x % count) + count) % count
                result.append(PlacedTile(tile: TileCoordinate(z: tileZoom, x: wrapped, y: y),
                                         x: Double(x) * tileSide - left, y: Double(y) * tileSide - top, tileSide: tileSide))
            }
        }
        return result
    }
}
