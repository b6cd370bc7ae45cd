/// One feature of a ``VectorTileLayer``: a view onto the layer's flat arrays
/// (a layer reference and an index), cheap to make and to pass around.
/// What a style evaluates (geometry type, id, property by key) is read from
/// the layer's tables without building a dictionary.
public struct VectorTileFeature: Sendable {
    /// The layer holding the feature.
    public let layer: VectorTileLayer
    /// The feature's position in its layer.
    public let index: Int
    /// The tile the feature is in, when the caller knows it (a style's
    /// `within` needs it; the layer drawer sets it).
    public var tile: TileCoordinate? = nil

    @inline(__always)
    private var record: VectorTileLayer.FeatureRecord { layer.records[index] }

    /// Point, line string, polygon (or unknown).
    public var geometryType: VectorTileGeometryType { record.type }

    /// The feature's id, when the tile gives one.
    public var id: UInt64? {
        let record = record
        return record.hasID ? record.id : nil
    }

    /// The value tagged with `key`, or nil when the feature has no such property.
    public func value(forKey key: String) -> VectorTileValue? {
        guard let keyIndex = layer.keyIndex[key] else { return nil }
        return value(forKeyIndex: Int(keyIndex))
    }

    /// The value tagged with the layer's key at `keyIndex` (from
    /// ``VectorTileLayer/index(ofKey:)``), or nil.
    public func value(forKeyIndex keyIndex: Int) -> VectorTileValue? {
        let record = record
        var i = Int(record.tagStart)
        let end = i + Int(record.tagCount)
        while i < end {
            if layer.tags[i] == UInt32(truncatingIfNeeded: keyIndex) { return layer.values[Int(layer.tags[i + 1])] }
            i += 2
        }
        return nil
    }

    /// Where the feature's tags are in the layer's `tags`: key index, value index, key index…
    var tagRange: Range<Int> {
        let record = record
        return Int(record.tagStart)..<Int(record.tagStart) + Int(record.tagCount)
    }

    /// The number of properties (tag pairs).
    public var propertyCount: Int { Int(record.tagCount) / 2 }

    /// The property at `position` (0..<propertyCount), in tile order.
    public func property(at position: Int) -> (key: String, value: VectorTileValue) {
        let i = Int(record.tagStart) + 2 * position
        return (layer.keys[Int(layer.tags[i])], layer.values[Int(layer.tags[i + 1])])
    }

    /// Every property as a dictionary: for tests and inspection (it allocates;
    /// a renderer asks ``value(forKey:)`` instead).
    public var properties: [String: VectorTileValue] {
        var result = [String: VectorTileValue]()
        for position in 0..<propertyCount {
            let (key, value) = property(at: position)
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    /// The feature's parts as indices into the layer's `partStarts` and
    /// `partIsExterior`: one part for points, one per line, one per ring.
    public var parts: Range<Int> {
        let record = record
        return Int(record.partStart)..<Int(record.partStart + record.partCount)
    }

    /// The points of each part, copied out (for tests and inspection; a
    /// renderer reads ``VectorTileLayer/points`` through ``parts``).
    public var geometry: [[VectorTilePoint]] { parts.map { Array(layer.points(ofPart: $0)) } }
}
