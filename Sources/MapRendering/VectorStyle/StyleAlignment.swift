/// What a `*-translate-anchor`, `circle-pitch-scale` or
/// `circle-pitch-alignment` is relative to.
public enum StyleAlignment: String, Sendable {
    /// The map: turns (and, under pitch, tilts) with it.
    case map
    /// The viewport: stays upright on the screen.
    case viewport
}
