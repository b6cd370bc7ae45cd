/// Which points a path's inside is.
public enum FillRule: Sendable {
    /// Inside where the path winds around a point any non-zero number of times.
    case nonZero
    /// Inside where a ray from the point crosses the path an odd number of times.
    case evenOdd
}
