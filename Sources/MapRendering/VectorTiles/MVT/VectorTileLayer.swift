/// One decoded layer of a vector tile, stored flat for drawing: every
/// feature's points in one array, parts (lines, rings) as offsets into it,
/// tags as indices into the layer's key and value tables. A feature is a
/// view (``VectorTileFeature``) onto these arrays, never an object per point.
///
/// Immutable once decoded, so it is shared between threads freely.
public final class VectorTileLayer: Sendable {
    /// Per feature: where its tags and parts are in the layer's arrays.
    struct FeatureRecord: Sendable {
        var id: UInt64
        var hasID: Bool
        var type: VectorTileGeometryType
        /// First index into `tags` and the number of indices (twice the pairs).
        var tagStart: UInt32
        var tagCount: UInt32
        /// First index into `partStarts` and the number of parts.
        var partStart: UInt32
        var partCount: UInt32
    }

    /// The layer's name (unique within a tile).
    public let name: String
    /// The MVT version the layer declares (1 or 2).
    public let version: UInt32
    /// Tile coordinates across the tile (4096 unless the layer says otherwise).
    public let extent: UInt32
    /// The layer's keys, indexed by features' tags.
    public let keys: [String]
    /// The layer's values, indexed by features' tags.
    public let values: [VectorTileValue]
    /// Every point of every feature, feature after feature, part after part.
    public let points: [VectorTilePoint]
    /// Where part `p` starts in `points`; part `p` ends where part `p + 1`
    /// starts (one more entry than there are parts).
    public let partStarts: [UInt32]
    /// For polygon parts: whether the ring is exterior (positive signed area
    /// in tile coordinates, clockwise on screen, per MVT 2.1 §4.3.4.4);
    /// false for holes and for the parts of points and lines.
    public let partIsExterior: [Bool]

    let records: [FeatureRecord]
    let tags: [UInt32]
    /// Key → index in `keys`, built once per layer so a lookup by key needs no
    /// dictionary per feature.
    let keyIndex: [String: UInt32]

    init(name: String, version: UInt32, extent: UInt32, keys: [String], values: [VectorTileValue],
         records: [FeatureRecord], tags: [UInt32], points: [VectorTilePoint], partStarts: [UInt32], partIsExterior: [Bool]) {
        self.name = name
        self.version = version
        self.extent = extent
        self.keys = keys
        self.values = values
        self.records = records
        self.points = points
        self.partStarts = partStarts
        self.partIsExterior = partIsExterior
        var index = [String: UInt32](minimumCapacity: keys.count)
        // Keys should be unique; where they are not, the first one answers.
        for (i, key) in keys.enumerated() where index[key] == nil { index[key] = UInt32(i) }
        keyIndex = index
        // A tag naming a repeated key is made to name its first copy, so a
        // lookup by key (which finds the first) finds every feature's value.
        var tags = tags
        if index.count < keys.count {
            let first = keys.map { index[$0] ?? 0 }
            for record in records {
                for i in stride(from: Int(record.tagStart), to: Int(record.tagStart) + Int(record.tagCount), by: 2)
                where Int(tags[i]) < first.count {
                    tags[i] = first[Int(tags[i])]
                }
            }
        }
        self.tags = tags
    }

    /// The number of features.
    public var featureCount: Int { records.count }

    /// The feature at `index` (0..<featureCount).
    public func feature(at index: Int) -> VectorTileFeature { VectorTileFeature(layer: self, index: index) }

    /// Every feature, in tile order.
    public var features: [VectorTileFeature] { (0..<records.count).map { VectorTileFeature(layer: self, index: $0) } }

    /// The index of `key` in `keys`, to look values up by index in a loop
    /// over features (``VectorTileFeature/value(forKeyIndex:)``).
    public func index(ofKey key: String) -> Int? { keyIndex[key].map(Int.init) }

    /// The points of part `part` (an index into `partStarts`).
    public func points(ofPart part: Int) -> ArraySlice<VectorTilePoint> {
        points[Int(partStarts[part])..<Int(partStarts[part + 1])]
    }

    /// Approximate bytes held, for a cache's cost.
    var decodedByteCount: Int {
        let strings = keys.reduce(0) { $0 + $1.utf8.count + 16 } + values.count * 24 + name.utf8.count
        return strings + records.count * MemoryLayout<FeatureRecord>.stride + tags.count * 4
            + points.count * 8 + partStarts.count * 4 + partIsExterior.count + keyIndex.count * 24 + 128
    }
}
