/// Decodes the lossy bitstream of a WebP `VP8 ` chunk: one VP8 key frame
/// (RFC 6386), reconstructed to the same Y′CbCr planes as libwebp.
///
/// Stages, one per file: `VP8FrameHeader` (frame tag and first-partition
/// header), `VP8BoolDecoder`, `VP8ModeReader` (per-macroblock modes),
/// `VP8CoefficientReader` (tokens, dequantised), `VP8Reconstructor`
/// (`VP8IntraPredictor` + `VP8InverseTransform`), `VP8LoopFilter`, and
/// `VP8Picture`/`VP8ColorConverter` for RGB.
///
/// Hostile input: the size is checked against `maximumPixelCount` before any
/// plane is allocated; partition sizes that reach past the chunk are cut to
/// it (as libwebp does); a partition that runs out of bytes makes the decode
/// fail with `.truncated` at the end of that macroblock row (libwebp's
/// "premature end of file"), so no picture is made from invented bits.
struct VP8Decoder {
    /// The largest width × height accepted.
    let maximumPixelCount: Int

    init(maximumPixelCount: Int) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The picture's size from the frame header, without decoding it.
    func readSize(_ chunk: UnsafeRawBufferPointer) throws -> (width: Int, height: Int) {
        let header = try VP8FrameHeader(tagOf: chunk)
        return (header.width, header.height)
    }

    /// Decodes the frame in `chunk` (the `VP8 ` chunk's payload, from its
    /// frame tag). `checkCancellation` runs once per macroblock row.
    func decode(_ chunk: UnsafeRawBufferPointer, checkCancellation: () throws -> Void) throws -> VP8Picture {
        var header = try VP8FrameHeader(tagOf: chunk)
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw VP8Error.tooManyPixels(width: header.width, height: header.height, limit: maximumPixelCount)
        }
        let firstPartitionEnd = 10 + header.firstPartitionSize
        var modeDecoder = VP8BoolDecoder(UnsafeRawBufferPointer(rebasing: chunk[10..<firstPartitionEnd]))
        try header.readCompressedHeader(&modeDecoder)
        var partitions = try Self.tokenPartitions(chunk, from: firstPartitionEnd, count: header.partitionCount)

        let columns = (header.width + 15) >> 4, rows = (header.height + 15) >> 4
        let lumaStride = columns * 16, chromaStride = columns * 8
        // Every byte is written by the reconstructor (whole macroblocks) before
        // anything reads it, so the planes start uninitialised.
        func plane(_ count: Int) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        var luma = plane(lumaStride * rows * 16)
        var cb = plane(chromaStride * rows * 8)
        var cr = plane(chromaStride * rows * 8)

        var modeReader = VP8ModeReader(header: header, macroblockColumns: columns)
        let coefficientReader = VP8CoefficientReader(probabilities: header.coefficientProbabilities, macroblockColumns: columns)
        defer { coefficientReader.deallocate() }
        let reconstructor = VP8Reconstructor(macroblockColumns: columns, macroblockRows: rows)
        defer { reconstructor.deallocate() }
        // libwebp filters only when the frame's level is non-zero, whatever the segments say.
        let filter = header.filterLevel > 0 ? VP8LoopFilter(header: header) : nil
        var strengths = [VP8LoopFilter.Strength](repeating: .init(), count: columns)

        try luma.withUnsafeMutableBufferPointer { lumaBuffer in
            try cb.withUnsafeMutableBufferPointer { cbBuffer in
                try cr.withUnsafeMutableBufferPointer { crBuffer in
                    let lumaPlane = lumaBuffer.baseAddress!, cbPlane = cbBuffer.baseAddress!, crPlane = crBuffer.baseAddress!
                    for y in 0..<rows {
                        try checkCancellation()
                        let partition = y & (header.partitionCount - 1)
                        modeReader.startRow()
                        coefficientReader.startRow()
                        reconstructor.startRow(y)
                        for x in 0..<columns {
                            let modes = modeReader.read(&modeDecoder, column: x)
                            let hasCoefficients = coefficientReader.read(
                                &partitions[partition], column: x, modes: modes,
                                quantizer: header.quantizers[modes.segment])
                            if let filter {
                                strengths[x] = filter.strength(segment: modes.segment, usesSubblocks: modes.usesSubblocks,
                                                               hasCoefficients: hasCoefficients)
                            }
                            reconstructor.reconstruct(
                                x: x, y: y, modes: modes, subblockModes: modeReader.subblockModes,
                                coefficients: coefficientReader.coefficients, transformKinds: coefficientReader.transformKinds,
                                luma: lumaPlane, lumaStride: lumaStride, cb: cbPlane, cr: crPlane, chromaStride: chromaStride)
                        }
                        guard !modeDecoder.isPastEnd else {
                            throw VP8Error.truncated("the first partition (macroblock row \(y) of \(rows))")
                        }
                        guard !partitions[partition].isPastEnd else {
                            throw VP8Error.truncated("token partition \(partition) (macroblock row \(y) of \(rows))")
                        }
                        guard let filter else { continue }
                        for x in 0..<columns {
                            filter.filterMacroblock(
                                strengths[x], x: x, y: y,
                                luma: lumaPlane + y * 16 * lumaStride + x * 16, lumaStride: lumaStride,
                                cb: cbPlane + y * 8 * chromaStride + x * 8, cr: crPlane + y * 8 * chromaStride + x * 8,
                                chromaStride: chromaStride)
                        }
                    }
                }
            }
        }
        return VP8Picture(width: header.width, height: header.height, luma: luma, lumaStride: lumaStride,
                          cb: cb, cr: cr, chromaStride: chromaStride)
    }

    /// The token partitions after the first (section 9.5): `count − 1` 3-byte
    /// little-endian sizes, then the partitions, the last taking the rest.
    /// Like libwebp, a size past the end is cut to what is left, and the last
    /// partition must not be empty.
    private static func tokenPartitions(_ chunk: UnsafeRawBufferPointer, from start: Int, count: Int) throws -> [VP8BoolDecoder] {
        let sizesLength = 3 * (count - 1)
        guard chunk.count - start >= sizesLength else {
            throw VP8Error.truncated("the sizes of \(count) token partitions")
        }
        var decoders: [VP8BoolDecoder] = []
        var position = start + sizesLength
        for i in 0..<(count - 1) {
            let entry = start + 3 * i
            let size = Int(chunk[entry]) | Int(chunk[entry + 1]) << 8 | Int(chunk[entry + 2]) << 16
            let end = position + min(size, chunk.count - position)
            decoders.append(VP8BoolDecoder(UnsafeRawBufferPointer(rebasing: chunk[position..<end])))
            position = end
        }
        guard position < chunk.count else {
            throw VP8Error.truncated("token partition \(count - 1) (no bytes left for it)")
        }
        decoders.append(VP8BoolDecoder(UnsafeRawBufferPointer(rebasing: chunk[position...])))
        return decoders
    }
}
