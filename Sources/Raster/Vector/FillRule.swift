/// Which points count as inside a self-overlapping outline.
public enum FillRule: String, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (holes must wind the other way).
    case nonZero
    /// Inside where the winding number is odd (every second overlap is a hole).
    case evenOdd
}
