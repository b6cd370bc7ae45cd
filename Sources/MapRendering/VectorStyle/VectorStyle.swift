import Foundation

/// A map style: the supported subset of the MapLibre style specification
/// (`docs/vector-styles.md` lists it), read from JSON and compiled once.
///
/// What the style asks for outside the subset (a layer type, a property, an
/// expression operator, a source type) is not an error: it is left out and named
/// once in ``warnings``. A malformed value, or a style over its ``StyleLimits``,
/// throws a ``VectorStyleError`` naming the line and column of the value (and
/// the file, for a style read with a ``fileName``).
public struct VectorStyle: Sendable {
    /// The style's `name`, if it has one.
    public var name: String?
    /// The vector sources, by name; the renderer binds a tile archive to each.
    public var sources: [String: VectorStyleSource]
    /// The layers the subset can draw, bottom first (unsupported ones left out).
    public var layers: [StyleLayer]
    /// The sprites `sprite` names (none without it): see ``Sprites``.
    public var sprites: [StyleSprite] = []
    /// One message per thing left out, each naming the layer and property or the
    /// source, e.g. `layer 'roads': layout property 'line-round-limit' is not supported`,
    /// and beginning with the file's name (`my.json: layer 'roads': …`) for a
    /// style read with a ``fileName``.
    public var warnings: [String]
    /// The name of the file the style was read from (as the user gave it), if
    /// given: its errors and warnings start with it.
    public var fileName: String?
    /// The style's `glyphs` URL template (`{fontstack}` and `{range}` tokens),
    /// if it has one: where its labels' signed-distance glyph ranges are
    /// (``GlyphFolderProvider`` reads `file://` ones). Without it labels use
    /// the embedded font.
    public var glyphs: String?
    /// The style's root `light`, which shades `fill-extrusion` layers (the
    /// specification's defaults without one).
    public var light = StyleLight()

    /// Reads a style from its JSON bytes, within `limits`.
    /// - Throws: ``VectorStyleError``, with the line and column of the value at fault.
    public init(data: Data, limits: StyleLimits = .default) throws {
        try self.init(data: data, fileName: nil, limits: limits)
    }

    /// Reads a style from the JSON bytes of the file `fileName` (the name the
    /// user knows it by, e.g. `my.json`: only used in messages), within `limits`.
    /// - Throws: ``VectorStyleError`` whose ``VectorStyleError/file`` is `fileName`.
    public init(data: Data, fileName: String?, limits: StyleLimits = .default) throws {
        do {
            let json = try StyleJSON.decode(data, limits: limits)
            var reader = VectorStyleReader(limits: limits)
            self = try reader.read(json)
        } catch var error as VectorStyleError {
            error.file = fileName
            if error.line == nil, let index = error.layerIndex {
                // The value at fault, else its layer: found by a second pass, only now.
                let layer = ["layers", String(index)]
                let value = layer + (error.section.map { [$0] } ?? []) + (error.property.map { [$0] } ?? [])
                let maximumDepth = limits.maximumExpressionDepth + StyleJSON.documentNesting
                if let position = StyleJSONParser.position(of: value, in: data, maximumDepth: maximumDepth)
                    ?? StyleJSONParser.position(of: layer, in: data, maximumDepth: maximumDepth) {
                    (error.line, error.column) = position
                }
            }
            error.layerIndex = nil
            throw error
        }
        self.fileName = fileName
        if let fileName { warnings = warnings.map { "\(fileName): \($0)" } }
    }

    /// Reads a style from its JSON text, within `limits`.
    /// - Throws: ``VectorStyleError``.
    public init(json: String, limits: StyleLimits = .default) throws {
        try self.init(data: Data(json.utf8), limits: limits)
    }

    init(name: String?, sources: [String: VectorStyleSource], layers: [StyleLayer], warnings: [String], glyphs: String? = nil) {
        self.name = name
        self.glyphs = glyphs
        self.sources = sources
        self.layers = layers
        self.warnings = warnings
    }
}
