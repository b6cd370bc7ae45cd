/// A decoded tile's feature is what style filters and properties evaluate:
/// its properties are read from the layer's tables on demand, no dictionary.
extension VectorTileFeature: StyleFeature {
    /// The geometry type as styles see it; an `UNKNOWN` geometry reads as a point
    /// (no fill or line layer draws it, and a `$type` filter cannot match it to
    /// lines or polygons).
    public var styleGeometryType: StyleGeometryType {
        switch geometryType {
        case .point, .unknown: return .point
        case .lineString: return .lineString
        case .polygon: return .polygon
        }
    }

    /// The feature's id, when the tile gives one.
    public var featureID: UInt64? { id }

    /// The geometry in ``tile``, nil when the tile is not known.
    public func styleTileGeometry() -> StyleTileGeometry? {
        tile.map { StyleTileGeometry(tile: $0, extent: Int(layer.extent), parts: geometry) }
    }

    /// The property `key` as a style value: every MVT number type as a number.
    public func styleValue(forKey key: String) -> StyleValue? {
        value(forKey: key)?.styleValue
    }
}

extension VectorTileValue {
    /// The value as a style expression reads it: every MVT number type a number.
    var styleValue: StyleValue {
        switch self {
        case .string(let string): return .string(string)
        case .bool(let bool): return .bool(bool)
        default: return number.map(StyleValue.number) ?? .null
        }
    }
}
