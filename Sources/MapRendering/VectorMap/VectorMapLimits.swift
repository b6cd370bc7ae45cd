/// Bounds on the work one vector map snapshot may cause, checked before the
/// work: a view needing too many tiles is refused before any is read, and
/// one whose tiles hold too many features or vertices for the style's layers
/// is refused before any is drawn. (Each tile is bounded by
/// ``VectorTileLimits`` as it is decoded.)
///
/// The defaults are several times what a dense city view needs: a 2048×2048
/// view at zoom 15 covers about 25 z14 tiles; the heaviest hold 30 000
/// features and 400 000 vertices each.
public struct VectorMapLimits: Equatable, Sendable {
    /// Most tiles one snapshot reads. Default 64.
    public var tilesPerSnapshot: Int
    /// Most features in the drawn layers of every tile of a snapshot. Default 1 000 000.
    public var featuresPerSnapshot: Int
    /// Most vertices in the drawn layers of every tile of a snapshot. Default 10 000 000.
    public var verticesPerSnapshot: Int

    /// Most features and anchors the `symbol` layers of a snapshot examine
    /// (each layer's filter on each feature of its source layer, each point
    /// of a multipoint, each place along a line tried). Default 200 000.
    /// Labels are the last thing drawn: past the limit the remaining
    /// candidates are left out, the map is not refused.
    public var labelFeaturesPerSnapshot: Int
    /// Most glyphs laid out for labels in a snapshot, placed or not (text is
    /// counted before it is laid out; a glyph over 32 pixels counts as
    /// `(size / 32)²`, as its work grows with its area). Default 100 000; past it, as above.
    public var labelGlyphsPerSnapshot: Int
    /// Most stroke work the `line` layers of a snapshot may cause, in about
    /// pixels of outline edge: each line's length twice, three times its
    /// width per vertex, and a few units per point and per chord of a round
    /// join or cap, for every stroke drawn, dash (`line-dasharray`) and
    /// offset copy (`line-offset`, the two strokes of a `line-gap-width`
    /// casing) included. Each line is charged before its dashes or copies
    /// are made; past the limit the snapshot fails with a `VectorTileError`
    /// naming the layer and this limit. Default 16 000 000, about 0.2 s of
    /// drawing: the built-in styles' densest 2048-pixel views of Helsinki
    /// cost under 1 500 000; a 100,000-length dash array on a road 10⁹ wide
    /// costs hundreds of millions.
    public var generatedGeometryPerSnapshot: Int
    /// Most labels placed in a snapshot. Default 10 000: a dense 2048-point
    /// view shows a few hundred, but a style that allows overlap may place
    /// thousands (MapLibre sets no bound); the work each costs is bounded by
    /// ``labelGlyphsPerSnapshot``. Past it, as above.
    public var labelsPerSnapshot: Int

    /// Limits with the documented defaults, any of them overridden.
    public init(tilesPerSnapshot: Int = 64, featuresPerSnapshot: Int = 1_000_000, verticesPerSnapshot: Int = 10_000_000,
                labelFeaturesPerSnapshot: Int = 200_000, labelGlyphsPerSnapshot: Int = 100_000, labelsPerSnapshot: Int = 10_000,
                generatedGeometryPerSnapshot: Int = 16_000_000) {
        self.tilesPerSnapshot = tilesPerSnapshot
        self.featuresPerSnapshot = featuresPerSnapshot
        self.verticesPerSnapshot = verticesPerSnapshot
        self.labelFeaturesPerSnapshot = labelFeaturesPerSnapshot
        self.labelGlyphsPerSnapshot = labelGlyphsPerSnapshot
        self.labelsPerSnapshot = labelsPerSnapshot
        self.generatedGeometryPerSnapshot = generatedGeometryPerSnapshot
    }

    /// The defaults.
    public static let `default` = VectorMapLimits()
}
