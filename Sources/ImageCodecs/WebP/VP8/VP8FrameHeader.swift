/// The header of a VP8 key frame (RFC 6386 sections 9.1 to 9.11 and 19.2): the
/// uncompressed frame tag and picture size, then, read with the boolean
/// decoder from the first partition, the segmentation, loop-filter and
/// quantiser settings, the token partitions' layout and the coefficient
/// probabilities. What libwebp ignores (colour space, clamping type, the
/// scaling bits, "refresh entropy probabilities") is read and dropped.
struct VP8FrameHeader {
    /// The picture's size in pixels (each 1...16383).
    var width: Int
    var height: Int
    /// The first partition's size in bytes, from the frame tag.
    var firstPartitionSize: Int

    /// Segmentation (section 9.3): four segments with their own quantiser and
    /// filter level, chosen per macroblock when `updatesSegmentMap`.
    var usesSegments = false
    var updatesSegmentMap = false
    /// Segment values replace the frame's (true) or add to them (false).
    var segmentValuesAreAbsolute = false
    var segmentQuantizers = [Int](repeating: 0, count: 4)
    var segmentFilterLevels = [Int](repeating: 0, count: 4)
    /// The tree probabilities of a macroblock's segment number.
    var segmentProbabilities: [UInt8] = [255, 255, 255]

    /// Loop filter (section 9.6).
    var usesSimpleFilter = false
    var filterLevel = 0
    var sharpness = 0
    var usesFilterDeltas = false
    /// The deltas for intra frames (reference frame 0) and for 4×4-predicted
    /// macroblocks (mode delta 0): the only ones a key frame uses.
    var intraFrameFilterDelta = 0
    var subblockModeFilterDelta = 0

    /// How many token partitions follow the first (1, 2, 4 or 8).
    var partitionCount = 1

    /// The dequantisation factors of each segment (all four equal without segmentation).
    var quantizers: [VP8Quantizer] = []

    /// `[plane][band][context][node]`, the defaults with this frame's updates.
    var coefficientProbabilities = VP8Tables.defaultCoefficientProbabilities
    /// The probability that a macroblock has no coefficients, when the frame codes it.
    var skipProbability: UInt8?

    /// Reads the frame tag and the key-frame start code and size (the first
    /// ten bytes), checking that the first partition fits in the chunk.
    init(tagOf chunk: UnsafeRawBufferPointer) throws {
        guard chunk.count >= 10 else {
            throw chunk.count >= 3 && chunk[0] & 1 == 1 ? VP8Error.unsupported("an inter frame")
                : VP8Error.truncated("the frame header (\(chunk.count) of 10 bytes)")
        }
        let tag = Int(chunk[0]) | Int(chunk[1]) << 8 | Int(chunk[2]) << 16
        guard tag & 1 == 0 else { throw VP8Error.unsupported("an inter frame") }
        guard (tag >> 1) & 7 <= 3 else { throw VP8Error.unsupported("VP8 profile \((tag >> 1) & 7)") }
        guard (tag >> 4) & 1 == 1 else { throw VP8Error.unsupported("a frame that is not shown") }
        guard chunk[3] == 0x9D, chunk[4] == 0x01, chunk[5] == 0x2A else {
            throw VP8Error.corrupt("the key frame's start code is not 9D 01 2A")
        }
        width = (Int(chunk[6]) | Int(chunk[7]) << 8) & 0x3FFF
        height = (Int(chunk[8]) | Int(chunk[9]) << 8) & 0x3FFF
        firstPartitionSize = tag >> 5
        guard width > 0, height > 0 else { throw VP8Error.corrupt("the picture is \(width)×\(height)") }
        guard firstPartitionSize <= chunk.count - 10 else {
            throw VP8Error.truncated("the first partition (\(firstPartitionSize) bytes, \(chunk.count - 10) left)")
        }
    }

    /// Reads the rest of the header from the first partition.
    mutating func readCompressedHeader(_ decoder: inout VP8BoolDecoder) throws {
        _ = decoder.readFlag()  // colour space: only 0 is defined, libwebp ignores it
        _ = decoder.readFlag()  // clamping type: libwebp always clamps
        readSegmentation(&decoder)
        readFilter(&decoder)
        guard !decoder.isPastEnd else { throw VP8Error.truncated("the segment and filter headers") }
        partitionCount = 1 << decoder.readLiteral(2)
        readQuantizers(&decoder)
        _ = decoder.readFlag()  // refresh entropy probabilities: meaningless for one frame
        readCoefficientProbabilities(&decoder)
    }

    private mutating func readSegmentation(_ decoder: inout VP8BoolDecoder) {
        usesSegments = decoder.readFlag()
        guard usesSegments else { return }
        updatesSegmentMap = decoder.readFlag()
        if decoder.readFlag() {  // update segment feature data
            segmentValuesAreAbsolute = decoder.readFlag()
            for s in 0..<4 { segmentQuantizers[s] = decoder.readOptionalSigned(7) }
            for s in 0..<4 { segmentFilterLevels[s] = decoder.readOptionalSigned(6) }
        }
        if updatesSegmentMap {
            for i in 0..<3 { segmentProbabilities[i] = decoder.readFlag() ? UInt8(decoder.readLiteral(8)) : 255 }
        }
    }

    private mutating func readFilter(_ decoder: inout VP8BoolDecoder) {
        usesSimpleFilter = decoder.readFlag()
        filterLevel = decoder.readLiteral(6)
        sharpness = decoder.readLiteral(3)
        usesFilterDeltas = decoder.readFlag()
        guard usesFilterDeltas, decoder.readFlag() else { return }
        // Four reference-frame deltas, then four mode deltas, each optional.
        // A key frame uses the first of each; the rest are read past.
        for i in 0..<4 where decoder.readFlag() {
            let delta = decoder.readSignedLiteral(6)
            if i == 0 { intraFrameFilterDelta = delta }
        }
        for i in 0..<4 where decoder.readFlag() {
            let delta = decoder.readSignedLiteral(6)
            if i == 0 { subblockModeFilterDelta = delta }
        }
    }

    private mutating func readQuantizers(_ decoder: inout VP8BoolDecoder) {
        let base = decoder.readLiteral(7)
        let deltas = VP8Quantizer.Deltas(
            y1DC: decoder.readOptionalSigned(4), y2DC: decoder.readOptionalSigned(4),
            y2AC: decoder.readOptionalSigned(4), uvDC: decoder.readOptionalSigned(4),
            uvAC: decoder.readOptionalSigned(4))
        quantizers = (0..<4).map { segment in
            guard usesSegments else { return VP8Quantizer(index: base, deltas: deltas) }
            let value = segmentQuantizers[segment]
            return VP8Quantizer(index: segmentValuesAreAbsolute ? value : base + value, deltas: deltas)
        }
    }

    private mutating func readCoefficientProbabilities(_ decoder: inout VP8BoolDecoder) {
        let updates = VP8Tables.coefficientUpdateProbabilities
        for i in 0..<updates.count where decoder.readBit(updates[i]) {
            coefficientProbabilities[i] = UInt8(decoder.readLiteral(8))
        }
        skipProbability = decoder.readFlag() ? UInt8(decoder.readLiteral(8)) : nil
    }
}
