import Raster

/// The colours of the built-in vector styles, as CSS strings: the colours
/// today's basemap draws with (``MapStyle/palette``: water, land, text, halo,
/// borders) and the street-level ones it never needed.
struct VectorStylePalette: Sendable {
    var water, land, text, halo, border, waterText: String
    var park, wood, grass, residential, industrial, building, buildingOutline: String
    var motorway, trunk, primary, secondary, minor, casing, path, rail, aeroway: String

    init(_ look: MapStyle) {
        let shared = look.palette
        water = Self.css(shared.water)
        land = Self.css(shared.land[0])
        text = Self.css(shared.text)
        halo = Self.css(shared.halo)
        border = Self.css(shared.border)
        switch look {
        case .light:
            waterText = "#4a7a8c"
            park = "#cdebb0"; wood = "#b5d9a3"; grass = "#d8ecc4"
            residential = "#ebe7df"; industrial = "#ebe3e6"
            building = "#dcd3cb"; buildingOutline = "#c9beb4"
            motorway = "#f6c27f"; trunk = "#f9d39b"; primary = "#fce5b0"; secondary = "#fffbe8"; minor = "#ffffff"
            casing = "#c8bfb2"; path = "#a8998a"; rail = "#9a9a9a"; aeroway = "#dedae4"
        case .dark:
            waterText = "#8fb3c9"
            park = "#2f4a36"; wood = "#2c4432"; grass = "#35473a"
            residential = "#393d46"; industrial = "#3d3b45"
            building = "#474c56"; buildingOutline = "#545a64"
            motorway = "#8c6b3d"; trunk = "#7d6643"; primary = "#6e6452"; secondary = "#5d626c"; minor = "#50555e"
            casing = "#24272d"; path = "#80848d"; rail = "#6e727b"; aeroway = "#43474f"
        }
    }

    /// `#rrggbb`, or `rgba(r, g, b, a)` when translucent: MapLibre Native's
    /// colour parser refuses `#rrggbbaa`, and a style it cannot read draws nothing.
    static func css(_ color: RGBA) -> String {
        guard color.a != 255 else { return "#" + color.hex }
        return "rgba(\(color.r), \(color.g), \(color.b), \((Double(color.a) / 255 * 1000).rounded() / 1000))"
    }
}
