/// Turns one MCU row of RGBA pixels into quantised blocks: colour conversion
/// into the sample bands, then the forward DCT and quantisation of each block,
/// written in scan order (per MCU: the luma blocks, then Cb and Cr), each as
/// a transposed block (see `JPEGForwardDCT.transformAndQuantize`).
final class JPEGMCURowTransformer {
    private let width: Int
    private let height: Int
    private let mcusX: Int
    /// Luma blocks per MCU across and down (1×1, 2×1 or 2×2).
    private let horizontalFactor: Int
    private let verticalFactor: Int
    private let layout: [Int]
    private let bands: JPEGSampleBands
    /// Luma divisors (8 vectors), then chroma divisors (8 vectors).
    private let divisors: UnsafeMutablePointer<SIMD8<Float>>
    /// The forward DCT's vectors between its two passes.
    private let scratch: UnsafeMutablePointer<SIMD4<Float>>

    /// `luma` and `chroma` are quantisation tables in zigzag order.
    init(width: Int, height: Int, mcusX: Int, horizontalFactor: Int, verticalFactor: Int, grayscale: Bool,
         layout: [Int], luma: [Int], chroma: [Int]) {
        self.width = width
        self.height = height
        self.mcusX = mcusX
        self.horizontalFactor = horizontalFactor
        self.verticalFactor = verticalFactor
        self.layout = layout
        bands = JPEGSampleBands(paddedWidth: mcusX * 8 * horizontalFactor, horizontalFactor: horizontalFactor,
                                verticalFactor: verticalFactor, grayscale: grayscale)
        scratch = .allocate(capacity: 16)
        divisors = .allocate(capacity: 16)
        divisors.initialize(from: JPEGForwardDCT.Divisors(zigzagTable: luma).vectors
                                + JPEGForwardDCT.Divisors(zigzagTable: chroma).vectors, count: 16)
    }

    deinit {
        divisors.deallocate()
        scratch.deallocate()
    }

    /// Writes the `mcusX × layout.count` blocks of MCU row `mcuRow` to `output`.
    func transform(mcuRow: Int, of pixels: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<Int16>) {
        bands.fill(mcuRow: mcuRow, from: pixels, width: width, height: height)
        let factor = horizontalFactor
        var block = output
        for mcu in 0..<mcusX {
            for (position, component) in layout.enumerated() {
                let samples: UnsafePointer<Float>
                let stride: Int
                if component == 0 {
                    let bx = mcu * factor + position % factor, by = position / factor
                    stride = bands.lumaStride
                    samples = UnsafePointer(bands.luma + by * 8 * stride + bx * 8)
                } else {
                    stride = bands.chromaStride
                    samples = UnsafePointer((component == 1 ? bands.cb : bands.cr) + mcu * 8)
                }
                JPEGForwardDCT.transformAndQuantize(samples, stride: stride, divisors: divisors + (component == 0 ? 0 : 8),
                                                    scratch: scratch, into: block)
                block += 64
            }
        }
    }
}
