/// One colour component of a frame (Y, Cb, Cr, C, M, Y, K...) and its
/// dequantised-later DCT coefficients: for the whole image (progressive and
/// multi-scan files), or one MCU row when a baseline scan streams them.
///
/// Coefficients live in a manually allocated buffer (natural order,
/// `coefficientsPerBlock` per block: 64, or 1 when only DC is kept, for a
/// component whose blocks become one sample at 1/8 scale) so the scan decoder
/// writes them without bounds or CoW checks; so does a streamed scan's note of
/// flat blocks. The class owns and frees both.
final class JPEGComponent {
    let id: Int
    let horizontalSampling: Int
    let verticalSampling: Int
    let quantizationTableIndex: Int
    /// Blocks per row and rows of blocks, padded to whole MCUs.
    var blocksPerLine = 0
    var blocksPerColumn = 0
    /// Blocks actually covering the component's samples (non-interleaved scans).
    var usedBlocksPerLine = 0
    var usedBlocksPerColumn = 0
    /// Samples per row and rows actually in the component (ceil of the scaled image size).
    var sampleWidth = 0
    var sampleHeight = 0
    var coefficients: UnsafeMutablePointer<Int16>?
    /// A streamed scan's note, per block of its band, of the blocks it found
    /// flat (no AC coefficient), so the IDCT need not test their 63 zeros.
    var flatBlocks: UnsafeMutablePointer<Bool>?
    /// 64, or 1 when only the DC coefficient of each block is kept.
    var coefficientsPerBlock = 64
    var dcTable: JPEGHuffmanTable?
    var acTable: JPEGHuffmanTable?

    init(id: Int, horizontalSampling: Int, verticalSampling: Int, quantizationTableIndex: Int) {
        self.id = id
        self.horizontalSampling = horizontalSampling
        self.verticalSampling = verticalSampling
        self.quantizationTableIndex = quantizationTableIndex
    }

    /// Sizes the component for the frame and allocates zeroed coefficients
    /// for `blockRows` rows of blocks (default: all of them; a streamed
    /// baseline scan keeps only one MCU row).
    func allocate(width: Int, height: Int, maxH: Int, maxV: Int, mcusX: Int, mcusY: Int, dcOnly: Bool, blockRows: Int? = nil) {
        sampleWidth = (width * horizontalSampling + maxH - 1) / maxH
        sampleHeight = (height * verticalSampling + maxV - 1) / maxV
        usedBlocksPerLine = (sampleWidth + 7) / 8
        usedBlocksPerColumn = (sampleHeight + 7) / 8
        blocksPerLine = mcusX * horizontalSampling
        blocksPerColumn = mcusY * verticalSampling
        coefficientsPerBlock = dcOnly ? 1 : 64
        let blocks = blocksPerLine * min(blockRows ?? blocksPerColumn, blocksPerColumn)
        let pointer = UnsafeMutablePointer<Int16>.allocate(capacity: blocks * coefficientsPerBlock)
        pointer.initialize(repeating: 0, count: blocks * coefficientsPerBlock)
        coefficients?.deallocate()
        coefficients = pointer
        flatBlocks?.deallocate()
        flatBlocks = nil
        if blockRows != nil {
            let flags = UnsafeMutablePointer<Bool>.allocate(capacity: blocks)
            flags.initialize(repeating: false, count: blocks)
            flatBlocks = flags
        }
    }

    deinit {
        coefficients?.deallocate()
        flatBlocks?.deallocate()
    }
}
