/// All that a fill or line layer can see of one feature: its geometry type
/// and, for each property the layer's filter and paint read, which of the tile
/// layer's values the feature holds (or that it holds none).
///
/// Features with one signature are drawn alike or not at all, so
/// `VectorLayerDrawer.prepare` evaluates a style layer once per signature,
/// not once per feature: a tile's thousands of roads come in a few dozen
/// combinations of `class`, `subclass` and `brunnel`.
struct FeatureSignature: Hashable {
    /// Lane 0: the geometry type; lane k: one more than the index in the tile
    /// layer's `values` of the feature's value for the reader's key k, 0 for none.
    private var lanes = SIMD8<UInt32>()

    /// The most property keys a signature holds; a layer reading more is
    /// evaluated feature by feature.
    static let maximumKeys = 7

    func hash(into hasher: inout Hasher) {
        let words = unsafeBitCast(lanes, to: SIMD4<UInt64>.self)
        hasher.combine(words[0] &+ words[1] &* 0x9E37_79B9_7F4A_7C15)
        hasher.combine(words[2] &+ words[3] &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Reads the signatures of one tile layer's features for one set of keys.
    struct Reader {
        /// Per key, its index in the tile layer's `keys` (the first, as
        /// ``VectorTileFeature/value(forKey:)`` finds it), or nil when the layer lacks it.
        private let keyIndices: [UInt32?]
        private let tags: [UInt32]

        /// A reader of `keys` in `layer`; nil when `keys` is nil (the layer
        /// reads features' ids) or holds more than ``maximumKeys``.
        init?(keys: Set<String>?, in layer: VectorTileLayer) {
            guard let keys, keys.count <= FeatureSignature.maximumKeys else { return nil }
            keyIndices = keys.map { layer.keyIndex[$0] }
            tags = layer.tags
        }

        /// The signature of `feature`, a feature of this reader's layer.
        func signature(of feature: VectorTileFeature) -> FeatureSignature {
            var signature = FeatureSignature()
            signature.lanes[0] = UInt32(feature.geometryType.rawValue)
            let range = feature.tagRange
            for (slot, key) in keyIndices.enumerated() {
                guard let key else { continue }
                // The first tag with the key answers, as in `value(forKeyIndex:)`.
                var i = range.lowerBound
                while i + 1 < range.upperBound {
                    if tags[i] == key {
                        signature.lanes[slot + 1] = tags[i + 1] &+ 1
                        break
                    }
                    i += 2
                }
            }
            return signature
        }
    }
}
