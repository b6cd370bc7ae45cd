/// The reduction a scaled JPEG decode applies: each 8×8 block becomes
/// 8, 4, 2 or 1 samples square, so thumbnails skip most of the work.
public enum JPEGScale: Int, CaseIterable, Sendable {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    /// Samples per block side at this scale.
    var blockSize: Int { 8 / rawValue }

    /// The decoded size of an image dimension: ceil(size / scale), as libjpeg computes it.
    public func scaled(_ size: Int) -> Int { (size + rawValue - 1) / rawValue }
}
