import Foundation

/// A GeoJSON document (RFC 7946) read into features: a `FeatureCollection`,
/// a single `Feature`, or a bare geometry (a feature without properties).
///
///     let document = try GeoJSON(data: Data(contentsOf: url))
///     let tiles = GeoJSONTiles(document)   // a VectorTileProviding for the renderer
///
/// Reading is strict about types (a `type` GeoJSON does not define, a
/// coordinate that is not a number, a member of the wrong JSON type are each
/// a ``GeoJSONError`` naming where) and checks ``GeoJSONLimits`` as it reads.
/// Members GeoJSON does not define (`bbox`, `crs`, foreign members) are ignored.
public struct GeoJSON: Equatable, Sendable {
    /// The features, in document order.
    public var features: [GeoJSONFeature]

    /// Reads `data` within `limits`; with `promoteId`, each feature's id is
    /// its property of that name (MapLibre's `promoteId`).
    /// - Throws: ``GeoJSONError``.
    public init(data: Data, limits: GeoJSONLimits = .default, promoteId: String? = nil) throws {
        guard data.count <= limits.maximumByteCount else {
            throw GeoJSONError(.limitExceeded, "the GeoJSON is \(data.count) bytes, over the limit of \(limits.maximumByteCount)")
        }
        let json: StyleJSON
        do {
            json = try StyleJSONParser.parse(data, maximumDepth: limits.maximumDepth)
        } catch let error as VectorStyleError {
            let detail = error.detail.replacingOccurrences(of: "the style is not valid JSON", with: "the GeoJSON is not valid JSON")
            let nesting = detail.contains("nesting deeper")
            throw GeoJSONError(nesting ? .limitExceeded : .malformedJSON,
                               nesting ? "\(detail)" : detail)
        }
        try self.init(json: json, limits: limits, promoteId: promoteId)
    }

    /// Reads an already parsed document (a style's inline `data`).
    init(json: StyleJSON, limits: GeoJSONLimits, promoteId: String?) throws {
        var reader = GeoJSONReader(limits: limits, promoteId: promoteId)
        features = try reader.read(json)
    }

    /// The features given.
    public init(features: [GeoJSONFeature]) {
        self.features = features
    }
}
