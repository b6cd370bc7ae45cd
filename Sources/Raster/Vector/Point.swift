/// A position in canvas pixels: x to the right, y downwards; pixel (i, j) covers [i, i+1) × [j, j+1).
public struct Point: Equatable, Sendable {
    /// Horizontal position, growing to the right.
    public var x: Double
    /// Vertical position, growing downwards.
    public var y: Double

    /// A point from its coordinates.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// True when both coordinates are finite (not NaN or infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
