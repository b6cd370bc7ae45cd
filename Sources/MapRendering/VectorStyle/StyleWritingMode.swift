/// One entry of `text-writing-mode`: the ways a point label may be written,
/// tried in the order the style lists them (MapLibre's `WritingMode`).
public enum StyleWritingMode: String, Sendable {
    /// Left to right on horizontal lines (the default).
    case horizontal
    /// Top to bottom: CJK characters upright one under the other, lines right
    /// to left. Only text with such a character (`VerticalText`) is written so.
    case vertical
}
