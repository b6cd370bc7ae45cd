/// Writes a VP8 key frame (RFC 6386 sections 9 and 19) from the encoder's
/// decisions: the frame tag, the first partition (header and macroblock
/// modes) and one token partition.
///
/// Before writing it settles the frame-wide probabilities: whether coding a
/// "skip" flag per macroblock pays, and which token probabilities to update
/// from their defaults, from a dry run of the tokens (`VP8TokenStatistics`).
struct VP8FrameWriter {
    let width: Int
    let height: Int
    let columns: Int
    let parameters: VP8EncodingParameters

    /// The frame's first partition is at most 2^19 − 1 bytes (the frame tag's field).
    static let maximumFirstPartitionSize = (1 << 19) - 1

    /// The `VP8 ` chunk's payload for `macroblocks` (raster order).
    func frame(_ macroblocks: [VP8EncodedMacroblock]) throws -> [UInt8] {
        let emptyCount = macroblocks.reduce(0) { $0 + ($1.isEmpty ? 1 : 0) }
        // The probability of "not skipped"; worth coding when skips are common enough.
        let notSkipped = UInt8(max((macroblocks.count - emptyCount) * 255 / macroblocks.count, 1))
        let skipProbability: UInt8? = notSkipped < 250 ? notSkipped : nil

        var statistics = VP8TokenStatistics()
        putTokens(macroblocks, skipProbability: skipProbability, probabilities: VP8Tables.defaultCoefficientProbabilities,
                  into: &statistics)
        let probabilities = statistics.updatedProbabilities()

        var tokens = VP8BoolEncoder(capacity: macroblocks.count * 64)
        putTokens(macroblocks, skipProbability: skipProbability, probabilities: probabilities, into: &tokens)
        var first = VP8BoolEncoder(capacity: macroblocks.count * 4 + 1200)
        putHeader(probabilities: probabilities, skipProbability: skipProbability, into: &first)
        putModes(macroblocks, skipProbability: skipProbability, into: &first)
        let firstPartition = first.finish(), tokenPartition = tokens.finish()
        guard firstPartition.count <= Self.maximumFirstPartitionSize else {
            throw WebPError.unencodableLossy("its modes take \(firstPartition.count) bytes, "
                + "above VP8's limit of \(Self.maximumFirstPartitionSize) for the first partition; encode it lossless")
        }

        var frame = [UInt8]()
        frame.reserveCapacity(10 + firstPartition.count + tokenPartition.count)
        // Frame tag: key frame (0), profile 0, shown, then the first partition's size.
        let tag = 1 << 4 | firstPartition.count << 5
        frame += [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF)]
        frame += [0x9D, 0x01, 0x2A]
        frame += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        frame += firstPartition
        frame += tokenPartition
        return frame
    }

    /// The frame header in the first partition (section 19.2).
    private func putHeader(probabilities: [UInt8], skipProbability: UInt8?, into sink: inout VP8BoolEncoder) {
        sink.put(false, 128)  // colour space 0
        sink.put(false, 128)  // clamping required
        putSegmentation(into: &sink)
        sink.put(false, 128)  // the normal loop filter
        sink.putLiteral(parameters.filterLevel, 6)
        sink.putLiteral(0, 3)  // sharpness
        sink.put(false, 128)  // no filter deltas
        sink.putLiteral(0, 2)  // one token partition
        sink.putLiteral(parameters.quantizerIndex, 7)
        sink.putOptionalSigned(0, 4)  // Y1 DC
        sink.putOptionalSigned(0, 4)  // Y2 DC
        sink.putOptionalSigned(0, 4)  // Y2 AC
        sink.putOptionalSigned(parameters.chromaDCDelta, 4)
        sink.putOptionalSigned(parameters.chromaACDelta, 4)
        sink.put(false, 128)  // refresh entropy probabilities: meaningless for one frame
        let defaults = VP8Tables.defaultCoefficientProbabilities, updates = VP8Tables.coefficientUpdateProbabilities
        for index in defaults.indices {
            let updated = probabilities[index] != defaults[index]
            sink.put(updated, updates[index])
            if updated { sink.putLiteral(Int(probabilities[index]), 8) }
        }
        sink.put(skipProbability != nil, 128)
        if let skipProbability { sink.putLiteral(Int(skipProbability), 8) }
    }

    /// The segment header (section 9.3): each segment's absolute quantiser
    /// index and filter level, and the map's tree probabilities.
    private func putSegmentation(into sink: inout VP8BoolEncoder) {
        sink.put(parameters.usesSegments, 128)
        guard parameters.usesSegments else { return }
        sink.put(true, 128)  // update the map
        sink.put(true, 128)  // update the segments' values
        sink.put(true, 128)  // absolute values, not deltas
        for segment in parameters.segments { sink.putOptionalSigned(segment.quantizerIndex, 7) }
        for segment in parameters.segments { sink.putOptionalSigned(segment.filterLevel, 6) }
        for probability in parameters.segmentProbabilities {
            sink.put(probability != 255, 128)
            if probability != 255 { sink.putLiteral(Int(probability), 8) }
        }
    }

    /// Each macroblock's segment (when segmented), skip flag and modes (section 19.3), the 4×4 modes
    /// against their neighbours' as `VP8ModeReader` reads them.
    private func putModes(_ macroblocks: [VP8EncodedMacroblock], skipProbability: UInt8?, into sink: inout VP8BoolEncoder) {
        var above = [UInt8](repeating: VP8IntraMode.dc, count: columns * 4)
        var left = [UInt8](repeating: VP8IntraMode.dc, count: 4)
        for (index, macroblock) in macroblocks.enumerated() {
            let x = index % columns
            if x == 0 { left = [VP8IntraMode.dc, VP8IntraMode.dc, VP8IntraMode.dc, VP8IntraMode.dc] }
            if parameters.usesSegments {
                let segment = parameters.segmentOf[index], p = parameters.segmentProbabilities
                sink.put(segment >= 2, p[0])
                sink.put(segment & 1 == 1, segment >= 2 ? p[2] : p[1])
            }
            if let skipProbability { sink.put(macroblock.isEmpty, skipProbability) }
            if macroblock.usesSubblocks {
                sink.put(false, 145)
                for block in 0..<16 {
                    let row = block >> 2, column = block & 3
                    let mode = macroblock.subblockModes[block]
                    VP8TokenWriter.putSubblockMode(mode, above: above[x * 4 + column], left: left[row], into: &sink)
                    above[x * 4 + column] = mode
                    left[row] = mode
                }
            } else {
                VP8TokenWriter.putLumaMode(macroblock.lumaMode, into: &sink)
                for i in 0..<4 { above[x * 4 + i] = macroblock.lumaMode; left[i] = macroblock.lumaMode }
            }
            VP8TokenWriter.putChromaMode(macroblock.chromaMode, into: &sink)
        }
    }

    /// Every macroblock's tokens (section 13); skipped macroblocks write none.
    private func putTokens<S: VP8BitSink>(_ macroblocks: [VP8EncodedMacroblock], skipProbability: UInt8?,
                                         probabilities: [UInt8], into sink: inout S) {
        var contexts = VP8TokenContexts(columns: columns)
        probabilities.withUnsafeBufferPointer { p in
            for (index, macroblock) in macroblocks.enumerated() {
                contexts.put(macroblock, x: index % columns, skips: skipProbability != nil,
                             probabilities: p.baseAddress!, into: &sink)
            }
        }
    }
}
