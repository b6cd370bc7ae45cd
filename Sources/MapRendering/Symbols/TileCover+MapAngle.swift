import Foundation

extension TileCover.Placed {
    /// The angle the map is turned by on the image (radians, clockwise, y down:
    /// minus the bearing): what a symbol aligned to the map turns by.
    var mapAngle: Double { atan2(sin, cos) }

    /// The angle the tile's x axis makes on the image at the point `u`, `v`
    /// (pixels along the tile's edges): under pitch, what a symbol turned with
    /// the map but facing the image turns by (MapLibre's `u_rotate_symbol`
    /// projects a step along x and measures its angle); ``mapAngle`` without one.
    func pixelAngle(_ u: Double, _ v: Double) -> Double {
        guard pitch != nil else { return mapAngle }
        let a = pixel(u, v), b = pixel(u + 1, v)
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, a.x != b.x || a.y != b.y else { return mapAngle }
        return atan2(b.y - a.y, b.x - a.x)
    }
}
