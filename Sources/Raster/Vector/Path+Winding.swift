extension Path {
    /// `polygon` wound counter-clockwise on screen (negative shoelace area in
    /// y-down coordinates). Shapes filled together with the non-zero rule must
    /// share a winding, or where they meet they cancel instead of merging.
    public static func counterClockwise(_ polygon: [Point]) -> [Point] {
        var area = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        return area > 0 ? polygon.reversed() : polygon
    }
}
