/// One scan of a progressive JPEG (ITU T.81 G.1.1): which components it
/// carries, which band of zigzag coefficients, and which of their bits.
struct JPEGProgressiveScan: Equatable {
    /// Component indices (0 luma, 1 Cb, 2 Cr); several only in DC scans.
    let components: [Int]
    /// First zigzag coefficient of the band (Ss); 0 for a DC scan.
    let spectralStart: Int
    /// Last zigzag coefficient of the band (Se).
    let spectralEnd: Int
    /// The bit position the previous scan of this band stopped at (Ah); 0 in a first scan.
    let successiveHigh: Int
    /// The lowest bit position this scan sends (Al).
    let successiveLow: Int

    /// A DC scan (Ss = Se = 0) or first AC scan sends whole values shifted
    /// right by Al; a refinement scan (Ah > 0) sends bit Al of each.
    var isRefinement: Bool { successiveHigh > 0 }

    /// The scan script of libjpeg's `jpeg_simple_progression`: DC first with
    /// one bit held back, the low luma band early, then chroma and the rest,
    /// each refined one bit at a time; six scans for grayscale, ten for YCbCr.
    static func simpleProgression(grayscale: Bool) -> [JPEGProgressiveScan] {
        func scan(_ components: [Int], _ ss: Int, _ se: Int, _ ah: Int, _ al: Int) -> JPEGProgressiveScan {
            JPEGProgressiveScan(components: components, spectralStart: ss, spectralEnd: se, successiveHigh: ah, successiveLow: al)
        }
        if grayscale {
            return [scan([0], 0, 0, 0, 1), scan([0], 1, 5, 0, 2), scan([0], 6, 63, 0, 2),
                    scan([0], 1, 63, 2, 1), scan([0], 0, 0, 1, 0), scan([0], 1, 63, 1, 0)]
        }
        return [scan([0, 1, 2], 0, 0, 0, 1), scan([0], 1, 5, 0, 2), scan([2], 1, 63, 0, 1), scan([1], 1, 63, 0, 1),
                scan([0], 6, 63, 0, 2), scan([0], 1, 63, 2, 1), scan([0, 1, 2], 0, 0, 1, 0), scan([2], 1, 63, 1, 0),
                scan([1], 1, 63, 1, 0), scan([0], 1, 63, 1, 0)]
    }
}
