import Foundation

/// A map style: the supported subset of the MapLibre style specification
/// (`docs/vector-styles.md` lists it), read from JSON and compiled once.
///
/// What the style asks for outside the subset (a layer type, a property, an
/// expression operator, a source type) is not an error: it is left out and named
/// once in ``warnings``. A malformed value, or a style over its ``StyleLimits``,
/// throws a ``VectorStyleError``.
public struct VectorStyle: Sendable {
    /// The style's `name`, if it has one.
    public var name: String?
    /// The style's vector sources, by name; the renderer binds a tile archive to each.
    public var sources: [String: VectorStyleSource]
    /// The layers the subset can draw, bottom first (unsupported ones left out).
    public var layers: [StyleLayer]
    /// One message per thing left out, each naming the layer and property or the
    /// source, e.g. `layer 'roads': paint property 'line-pattern' is not supported`.
    public var warnings: [String]

    /// Reads a style from its JSON bytes, within `limits`.
    /// - Throws: ``VectorStyleError``.
    public init(data: Data, limits: StyleLimits = .default) throws {
        let json = try StyleJSON.decode(data, limits: limits)
        var reader = VectorStyleReader(limits: limits)
        self = try reader.read(json)
    }

    /// Reads a style from its JSON text, within `limits`.
    /// - Throws: ``VectorStyleError``.
    public init(json: String, limits: StyleLimits = .default) throws {
        try self.init(data: Data(json.utf8), limits: limits)
    }

    init(name: String?, sources: [String: VectorStyleSource], layers: [StyleLayer], warnings: [String]) {
        self.name = name
        self.sources = sources
        self.layers = layers
        self.warnings = warnings
    }
}
