import Raster

/// A pin on a map: where, in what colour, with what one-character label.
public struct MapMarker: Hashable, Sendable {
    /// Marker sizes, as in Google Static Maps: the pin's height in points.
    public enum Size: String, CaseIterable, Sendable {
        /// 20 points.
        case small
        /// 30 points (the default).
        case medium
        /// 40 points.
        case large

        /// Height of the pin in points (before `scale`).
        public var height: Double {
            switch self {
            case .small: return 20
            case .medium: return 30
            case .large: return 40
            }
        }
    }

    /// Where the pin's tip touches.
    public var coordinate: GeoCoordinate
    /// The pin's fill.
    public var color: RGBA
    /// One letter or digit drawn on the pin, or nil.
    public var label: Character?
    /// How tall the pin stands.
    public var size: Size

    /// The pin colour when none is given (a strong red).
    public static let defaultColor = RGBA(229, 57, 53)

    /// A pin at `coordinate`.
    public init(coordinate: GeoCoordinate, color: RGBA = MapMarker.defaultColor, label: Character? = nil, size: Size = .medium) {
        self.coordinate = coordinate
        self.color = color
        self.label = label
        self.size = size
    }
}
