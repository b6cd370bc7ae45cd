/// The reduction a scaled JPEG decode applies: each 8×8 block becomes
/// 8, 4, 2 or 1 samples square, so thumbnails skip most of the work.
public enum JPEGScale: Int, CaseIterable, Sendable {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    /// Samples per block side at this scale (of a component at full resolution).
    var blockSize: Int { 8 / rawValue }

    /// For one side of a component subsampled by `subsampling` (the frame's
    /// largest sampling factor over the component's): the samples per block
    /// side its inverse DCT makes at this scale, and the upsampling factor
    /// still left to reach the output size.
    ///
    /// A reduced scale gives the IDCT room to spare: each factor of two of
    /// subsampling is taken by doubling the IDCT's size (up to the block's
    /// 8), so 4:2:0 chroma at 1/8 comes out of a 2×2 IDCT at the output scale
    /// instead of a 1×1 one upsampled twice, and keeps the detail the file
    /// has. libjpeg-turbo does the same (jdmaster.c), but only when both
    /// sides allow it; here each side is sized on its own, so 4:2:2 gains too.
    func componentBlock(subsampling: Int) -> (samples: Int, upsampling: Int) {
        var samples = blockSize, upsampling = subsampling
        while samples < 8 && upsampling % 2 == 0 {
            samples *= 2
            upsampling /= 2
        }
        return (samples, upsampling)
    }

    /// The decoded size of an image dimension: ceil(size / scale), as libjpeg computes it.
    public func scaled(_ size: Int) -> Int { (size + rawValue - 1) / rawValue }
}
