/// One macroblock's header from the first partition (RFC 6386 sections 10,
/// 11.2 to 11.4 and 19.3): its segment, whether it has coefficients, and its
/// prediction modes, the 4×4 ones coded against the modes above and to the left.
struct VP8MacroblockModes {
    var segment = 0
    /// The frame codes "no coefficients" for this macroblock.
    var skipsCoefficients = false
    /// Predicted as sixteen 4×4 blocks (otherwise one 16×16 block with a Y2 block).
    var usesSubblocks = false
    /// The 16×16 mode, when `usesSubblocks` is false.
    var lumaMode = VP8IntraMode.dc
    var chromaMode = VP8IntraMode.dc
}

/// Reads macroblock headers, keeping the 4×4 modes of the row above and of
/// the macroblock to the left as the contexts of the next ones.
struct VP8ModeReader {
    /// Four modes per macroblock column: the bottom row of 4×4 modes above.
    private var above: [UInt8]
    /// The right column of 4×4 modes of the macroblock to the left.
    private var left: [UInt8] = [0, 0, 0, 0]
    /// The sixteen 4×4 modes of the last macroblock read, in raster order.
    private(set) var subblockModes = [UInt8](repeating: 0, count: 16)
    private let segmentProbabilities: [UInt8]
    private let updatesSegmentMap: Bool
    private let skipProbability: UInt8?

    init(header: VP8FrameHeader, macroblockColumns: Int) {
        above = [UInt8](repeating: VP8IntraMode.dc, count: macroblockColumns * 4)
        segmentProbabilities = header.segmentProbabilities
        updatesSegmentMap = header.updatesSegmentMap
        skipProbability = header.skipProbability
    }

    /// A new row of macroblocks starts with DC contexts on the left.
    mutating func startRow() {
        left = [VP8IntraMode.dc, VP8IntraMode.dc, VP8IntraMode.dc, VP8IntraMode.dc]
    }

    /// The header of the macroblock in column `x`.
    mutating func read(_ partition: inout VP8BoolDecoder, column x: Int) -> VP8MacroblockModes {
        var decoder = partition  // kept in registers (see VP8CoefficientReader.read)
        defer { partition = decoder }
        var modes = VP8MacroblockModes()
        if updatesSegmentMap {
            modes.segment = !decoder.readBit(segmentProbabilities[0])
                ? (decoder.readBit(segmentProbabilities[1]) ? 1 : 0)
                : (decoder.readBit(segmentProbabilities[2]) ? 3 : 2)
        }
        if let skipProbability { modes.skipsCoefficients = decoder.readBit(skipProbability) }
        modes.usesSubblocks = !decoder.readBit(145)
        if !modes.usesSubblocks {
            // The fixed key-frame tree of section 11.2.
            let mode = decoder.readBit(156)
                ? (decoder.readBit(128) ? VP8IntraMode.trueMotion : VP8IntraMode.horizontal)
                : (decoder.readBit(163) ? VP8IntraMode.vertical : VP8IntraMode.dc)
            modes.lumaMode = mode
            // A whole-block mode is the context its 4×4 neighbours see.
            for i in 0..<4 { above[x * 4 + i] = mode; left[i] = mode }
        } else {
            readSubblockModes(&decoder, column: x)
        }
        modes.chromaMode = !decoder.readBit(142) ? VP8IntraMode.dc
            : !decoder.readBit(114) ? VP8IntraMode.vertical
            : decoder.readBit(183) ? VP8IntraMode.trueMotion : VP8IntraMode.horizontal
        return modes
    }

    /// The sixteen 4×4 modes, each read with the probabilities its above and
    /// left neighbours select (section 11.5), along the tree of section 11.4.
    private mutating func readSubblockModes(_ decoder: inout VP8BoolDecoder, column x: Int) {
        VP8Tables.subblockModeProbabilities.withUnsafeBufferPointer { table in
            for row in 0..<4 {
                var leftMode = left[row]
                for column in 0..<4 {
                    let p = table.baseAddress! + (Int(above[x * 4 + column]) * 10 + Int(leftMode)) * 9
                    let mode: UInt8
                    if !decoder.readBit(p[0]) {
                        mode = VP8IntraMode.dc
                    } else if !decoder.readBit(p[1]) {
                        mode = VP8IntraMode.trueMotion
                    } else if !decoder.readBit(p[2]) {
                        mode = VP8IntraMode.vertical
                    } else if !decoder.readBit(p[3]) {
                        mode = !decoder.readBit(p[4]) ? VP8IntraMode.horizontal
                            : !decoder.readBit(p[5]) ? VP8IntraMode.downRight : VP8IntraMode.verticalRight
                    } else if !decoder.readBit(p[6]) {
                        mode = VP8IntraMode.downLeft
                    } else if !decoder.readBit(p[7]) {
                        mode = VP8IntraMode.verticalLeft
                    } else {
                        mode = !decoder.readBit(p[8]) ? VP8IntraMode.horizontalDown : VP8IntraMode.horizontalUp
                    }
                    subblockModes[row * 4 + column] = mode
                    above[x * 4 + column] = mode
                    leftMode = mode
                }
                left[row] = leftMode
            }
        }
    }
}
