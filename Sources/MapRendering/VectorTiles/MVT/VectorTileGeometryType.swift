/// The geometry type of a feature (MVT 2.1 `GeomType`).
public enum VectorTileGeometryType: UInt8, Sendable {
    /// `UNKNOWN` (0): the spec lets decoders keep it; styles draw nothing for it.
    case unknown = 0
    /// One or more points: a single part holding every point.
    case point = 1
    /// One or more lines: a part per line.
    case lineString = 2
    /// One or more polygons: a part per ring, each exterior ring followed by its holes.
    case polygon = 3
}
