/// Which labels a snapshot draws over the basemap (`labels=` in `map://` URLs).
public enum MapLabels: String, CaseIterable, Sendable {
    /// Names of populated places, by rank: capitals and big cities first, more as
    /// the zoom grows, none overlapping another or a marker.
    case places
    /// No labels, for apps that draw their own.
    case none
}
