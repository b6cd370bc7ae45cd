/// The vector styles that ship with the package: light and dark, in the look of
/// the package's other maps, for the two tile schemas users get vector tiles in.
/// Each is our own MapLibre style JSON inside the supported subset (it reads with
/// no warnings); its one vector source is named after the schema
/// (`openmaptiles`, `protomaps`), and the renderer binds an archive to it.
public struct BuiltinVectorStyle: Sendable, Hashable {
    /// The layer and field names the tiles use.
    public enum Schema: String, CaseIterable, Sendable {
        /// OpenMapTiles: what tilemaker, OpenMapTiles and MapTiler produce.
        case openMapTiles
        /// Protomaps basemap v4: Protomaps' planet builds and `pmtiles extract`.
        case protomaps
    }

    /// The tile schema the style reads.
    public var schema: Schema
    /// Light or dark.
    public var look: MapStyle

    /// The built-in style for `schema` in `look`.
    public init(schema: Schema, look: MapStyle) {
        self.schema = schema
        self.look = look
    }

    /// The style's JSON text.
    public var json: String {
        let palette = VectorStylePalette(look)
        switch schema {
        case .openMapTiles: return Self.openMapTiles(palette, name: "URLSchemeKit OpenMapTiles \(look.rawValue)")
        case .protomaps: return Self.protomaps(palette, name: "URLSchemeKit Protomaps \(look.rawValue)")
        }
    }

    /// The style, read.
    public func style() throws -> VectorStyle {
        try VectorStyle(json: json)
    }

    /// Road widths in pixels by zoom (exponential, base 1.5), the output a `match`
    /// of `field` over road classes: shared by the road fills and, as their
    /// `line-gap-width`, by the casings around them.
    static func roadWidth(field: String, classes: [(names: [String], widths: [Double])]) -> String {
        let zooms = [5.0, 10, 14, 18]
        let stops = zooms.enumerated().map { index, zoom in
            let branches = classes.map { names, widths in
                "[\(names.map { "\"\($0)\"" }.joined(separator: ", "))], \(widths[index])"
            }.joined(separator: ", ")
            return "\(Int(zoom)), [\"match\", [\"get\", \"\(field)\"], \(branches), 0]"
        }
        return "[\"interpolate\", [\"exponential\", 1.5], [\"zoom\"], \(stops.joined(separator: ", "))]"
    }
}
