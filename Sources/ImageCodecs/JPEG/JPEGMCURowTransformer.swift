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
    /// The luma quantizer's vectors, then the chroma quantizer's.
    private let quantizers: UnsafeMutablePointer<SIMD8<UInt16>>
    /// One per block of an MCU, in `layout` order.
    private let sources: UnsafeMutablePointer<BlockSource>

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
        let (lumaQuantizer, chromaQuantizer) = (JPEGForwardDCT.Quantizer(zigzagTable: luma), JPEGForwardDCT.Quantizer(zigzagTable: chroma))
        quantizers = .allocate(capacity: lumaQuantizer.vectors.count * 2)
        quantizers.initialize(from: lumaQuantizer.vectors + chromaQuantizer.vectors, count: lumaQuantizer.vectors.count * 2)
        sources = .allocate(capacity: layout.count)
        for (position, component) in layout.enumerated() {
            let source: BlockSource
            if component == 0 {
                let bx = position % horizontalFactor, by = position / horizontalFactor
                source = BlockSource(samples: UnsafePointer(bands.luma + by * 8 * bands.lumaStride + bx * 8),
                                     step: 8 * horizontalFactor, stride: bands.lumaStride, quantizer: quantizers)
            } else {
                source = BlockSource(samples: UnsafePointer(component == 1 ? bands.cb : bands.cr), step: 8,
                                     stride: bands.chromaStride, quantizer: quantizers + lumaQuantizer.vectors.count)
            }
            (sources + position).initialize(to: source)
        }
    }

    deinit {
        quantizers.deallocate()
        sources.deallocate()
    }

    /// Writes the `mcusX × layout.count` blocks of MCU row `mcuRow` to `output`.
    func transform(mcuRow: Int, of pixels: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<Int16>) {
        bands.fill(mcuRow: mcuRow, from: pixels, width: width, height: height)
        let sources = self.sources, count = layout.count
        var block = output
        for mcu in 0..<mcusX {
            for position in 0..<count {
                let source = sources[position]
                JPEGForwardDCT.transformAndQuantize(source.samples + mcu &* source.step, stride: source.stride,
                                                    quantizer: source.quantizer, into: block)
                block += 64
            }
        }
    }

    /// Where the block at one position of an MCU comes from: its samples in
    /// the first MCU, how far the next MCU's are, and its quantizer (worked
    /// out once, so the block loop does no division).
    private struct BlockSource {
        var samples: UnsafePointer<Int16>
        var step: Int
        var stride: Int
        var quantizer: UnsafePointer<SIMD8<UInt16>>
    }
}
