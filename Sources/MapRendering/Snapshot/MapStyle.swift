import Raster

/// The look of a rendered map: a name for URLs and the colours it paints with.
public enum MapStyle: String, CaseIterable, Sendable {
    /// Pale land on light blue water, dark text.
    case light
    /// Dark grey land on deep blue water, light text.
    case dark

    /// The colours of this style.
    public var palette: MapPalette {
        switch self {
        case .light:
            return MapPalette(
                water: RGBA(170, 211, 223),
                land: [RGBA(242, 239, 233), RGBA(236, 232, 222), RGBA(240, 236, 226), RGBA(233, 230, 220),
                       RGBA(238, 235, 228), RGBA(231, 228, 218), RGBA(244, 241, 236)],
                border: RGBA(176, 166, 178),
                regionBorder: RGBA(206, 196, 204),
                coastline: RGBA(120, 160, 178),
                text: RGBA(60, 60, 60),
                halo: RGBA(255, 255, 255, 220))
        case .dark:
            return MapPalette(
                water: RGBA(23, 32, 46),
                land: [RGBA(52, 56, 64), RGBA(48, 52, 60), RGBA(55, 59, 67), RGBA(46, 50, 58),
                       RGBA(50, 54, 62), RGBA(44, 48, 56), RGBA(57, 61, 69)],
                border: RGBA(98, 104, 118),
                regionBorder: RGBA(74, 79, 90),
                coastline: RGBA(70, 96, 120),
                text: RGBA(220, 220, 220),
                halo: RGBA(0, 0, 0, 200))
        }
    }
}

/// The colours a `MapStyle` paints with.
public struct MapPalette: Sendable, Equatable {
    /// Oceans and lakes: the background.
    public var water: RGBA
    /// Land, one shade per Natural Earth colour class 1–7 so neighbours differ slightly.
    public var land: [RGBA]
    /// Country borders.
    public var border: RGBA
    /// First-level administrative boundaries: fainter than country borders.
    public var regionBorder: RGBA
    /// Coastline strokes.
    public var coastline: RGBA
    /// Attribution and label text, and place dots.
    public var text: RGBA
    /// The halo drawn around text so it reads on any background.
    public var halo: RGBA

    /// The land colour for a country's colour class (1–7; others wrap).
    public func land(colorClass: Int) -> RGBA {
        land[((colorClass - 1) % land.count + land.count) % land.count]
    }
}
