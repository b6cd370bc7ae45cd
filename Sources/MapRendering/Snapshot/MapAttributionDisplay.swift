/// Whether a snapshot credits its data in its bottom-right corner
/// (`attribution=` in `map://` URLs).
public enum MapAttributionDisplay: String, CaseIterable, Sendable {
    /// The credit drawn in the corner, as every map here has it by default.
    case corner
    /// No credit drawn: for a tile of a slippy map (`urlscheme serve`'s
    /// `/tiles/…`), whose page shows the credit once (TileJSON's `attribution`)
    /// instead of once per tile. The data's licence still asks for the credit somewhere.
    case none
}
