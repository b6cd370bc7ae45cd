import Foundation

extension TileCover.Placed {
    /// The angle the map is turned by on the image (radians, clockwise, y down:
    /// minus the bearing): what a symbol aligned to the map turns by.
    var mapAngle: Double { atan2(sin, cos) }
}
