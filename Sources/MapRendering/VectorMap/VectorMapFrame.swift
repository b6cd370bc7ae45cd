import Foundation
import Raster

/// Where a camera's view lies in the world and which source tiles cover it,
/// in output pixels.
struct VectorMapFrame {
    let pixelWidth: Int
    let pixelHeight: Int
    /// The source zoom the tiles come from.
    let tileZoom: Int
    /// The source's lowest zoom: under a steep pitch far tiles come from lower zooms, none below it.
    let minimumZoom: Int
    /// One tile's side in output pixels.
    let tileSide: Double
    /// The view's top-left corner in world pixels.
    private var left: Double
    private var top: Double
    /// The world's side in output pixels.
    private let world: Double
    /// The camera's bearing, degrees.
    let bearing: Double
    /// The cosine and sine of the turn on the image (minus the bearing,
    /// clockwise with y down), as ``TileCover/Placed`` turns tiles.
    private let turn: (cos: Double, sin: Double)
    /// The camera's pitch, nil for none: every position on the image goes
    /// through it (``unitPoint(x:y:)``, ``pixelPoint(unitX:unitY:)``, ``cover``).
    let pitch: PitchProjection?

    init(camera: VectorMapCamera, zoomRange: ClosedRange<Int>) {
        pixelWidth = camera.pixelWidth
        pixelHeight = camera.pixelHeight
        // MapLibre reads 512-point tiles at the floor of the style zoom.
        let wanted = Int(camera.styleZoom.rounded(.down))
        // Capped at 24 whatever a hostile header says, so the tile arithmetic stays in range.
        tileZoom = min(24, min(max(wanted, zoomRange.lowerBound), zoomRange.upperBound))
        minimumZoom = zoomRange.lowerBound
        world = WebMercator.worldSize(zoom: camera.zoom) * camera.scale
        tileSide = world / Double(1 << tileZoom)
        let latitude = min(max(camera.center.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude)
        let center = WebMercator.project(latitude: latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        left = center.x * camera.scale - Double(pixelWidth) / 2
        top = center.y * camera.scale - Double(pixelHeight) / 2
        bearing = camera.bearing
        let angle = -camera.bearing * .pi / 180
        turn = camera.bearing.truncatingRemainder(dividingBy: 360) == 0 ? (1, 0) : (cos(angle), sin(angle))
        pitch = camera.pitch == 0 ? nil : PitchProjection(pitch: camera.pitch, width: Double(pixelWidth), height: Double(pixelHeight))
    }

    /// The Web Mercator position (0…1 across the world, y down, x not
    /// wrapped) under the output pixel position (`x`, `y`), the view's turn
    /// and pitch undone; not finite above MapLibre's far plane (no ground shows there).
    func unitPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        var (x, y) = (x, y)
        if let pitch {
            guard pitch.showsGround(row: y) else { return (.nan, .nan) }
            let p = pitch.unproject(Point(x, y))
            (x, y) = (p.x, p.y)
        }
        let dx = x - Double(pixelWidth) / 2, dy = y - Double(pixelHeight) / 2
        let worldX = turn.cos * dx + turn.sin * dy, worldY = -turn.sin * dx + turn.cos * dy
        return ((left + Double(pixelWidth) / 2 + worldX) / world, (top + Double(pixelHeight) / 2 + worldY) / world)
    }

    /// The frame moved by under half a point so that `camera`'s centre falls
    /// where MapLibre aligns raster tiles to the pixel grid (its
    /// `alignedProjMatrix`: the centre rounded to a whole point, less half a
    /// point along an odd dimension), so 1:1 tiles are drawn crisp.
    func alignedToPixels(_ camera: VectorMapCamera) -> VectorMapFrame {
        var frame = self
        let scale = camera.scale
        func shift(_ start: Double, _ pixels: Int, _ points: Int) -> Double {
            let center = (start + Double(pixels) / 2) / scale
            let d = center - center.rounded() + Double(points % 2) / 2
            return (d > 0.5 ? d - 1 : d) * scale
        }
        frame.left -= shift(left, pixelWidth, camera.width)
        frame.top -= shift(top, pixelHeight, camera.height)
        return frame
    }

    /// The output pixel position of the Web Mercator position (`x`, `y`),
    /// turned and pitched with the view (not finite behind MapLibre's near plane).
    func pixelPoint(unitX x: Double, unitY y: Double) -> (x: Double, y: Double) {
        let worldX = x * world - left - Double(pixelWidth) / 2, worldY = y * world - top - Double(pixelHeight) / 2
        let plane = (x: Double(pixelWidth) / 2 + turn.cos * worldX - turn.sin * worldY,
                     y: Double(pixelHeight) / 2 + turn.sin * worldX + turn.cos * worldY)
        guard let pitch else { return plane }
        guard plane.y <= pitch.nearY else { return (.nan, .nan) }
        let p = pitch.project(Point(plane.x, plane.y))
        return (p.x, p.y)
    }

    /// The Web Mercator positions (as ``unitPoint(x:y:)``) of the corners of
    /// the ground the image shows: its own corners, the top cut at the far
    /// plane under pitch (top-left, top-right, bottom-right, bottom-left).
    var groundCorners: [(x: Double, y: Double)] {
        let (width, height) = (Double(pixelWidth), Double(pixelHeight))
        let top = pitch.map { max(0, $0.farRow) + 1e-9 } ?? 0
        return [(0.0, top), (width, top), (width, height), (0, height)].map { unitPoint(x: $0.0, y: $0.1) }
    }

    /// The tiles covering the view (`TileCover`, the rule the raster renderer
    /// uses too), each placed with the camera's turn: every drawing stage
    /// projects tile points through ``TileCover/Placed/pixel(_:_:)``, or
    /// world points through ``pixelPoint(unitX:unitY:)``.
    var cover: TileCover {
        TileCover(zoom: tileZoom, tileSide: tileSide, left: left, top: top, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                  bearing: bearing, pitch: pitch, minimumZoom: minimumZoom)
    }
}
