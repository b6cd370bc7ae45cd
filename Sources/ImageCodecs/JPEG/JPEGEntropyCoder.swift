/// Huffman-codes quantised blocks for a baseline scan (DC differences and
/// run-length AC symbols), or counts the symbols for optimised tables.
enum JPEGEntropyCoder {
    /// Symbol frequencies per table (index 0 luma, 1 chroma), 257 entries each.
    struct Statistics {
        var dc = [[Int]](repeating: [Int](repeating: 0, count: 257), count: 2)
        var ac = [[Int]](repeating: [Int](repeating: 0, count: 257), count: 2)
    }

    /// Number of bits needed for the magnitude of `value` (JPEG's category SSSS).
    @inline(__always)
    static func category(_ value: Int) -> Int {
        let magnitude = value < 0 ? -value : value
        return magnitude == 0 ? 0 : (Int.bitWidth - magnitude.leadingZeroBitCount)
    }

    static func statistics(_ blocks: JPEGQuantizedBlocks, layout: [Int], restartInterval: Int) -> Statistics {
        var stats = Statistics()
        var predictors = [0, 0, 0]
        blocks.coefficients.withUnsafeBufferPointer { c in
            var block = 0
            for mcu in 0..<blocks.mcuCount {
                if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 { predictors = [0, 0, 0] }
                for component in layout {
                    let table = component == 0 ? 0 : 1
                    let b = c.baseAddress! + block * 64
                    let dc = Int(b[0])
                    stats.dc[table][category(dc - predictors[component])] += 1
                    predictors[component] = dc
                    var run = 0
                    for k in 1..<64 {
                        let v = Int(b[k])
                        if v == 0 { run += 1; continue }
                        while run > 15 { stats.ac[table][0xF0] += 1; run -= 16 }
                        stats.ac[table][run << 4 | category(v)] += 1
                        run = 0
                    }
                    if run > 0 { stats.ac[table][0] += 1 }
                    block += 1
                }
            }
        }
        return stats
    }

    static func encode(_ blocks: JPEGQuantizedBlocks, layout: [Int], dc: [JPEGHuffmanEncoder], ac: [JPEGHuffmanEncoder],
                       restartInterval: Int, into writer: inout JPEGBitWriter) {
        var predictors = [0, 0, 0]
        var restartIndex = 0
        blocks.coefficients.withUnsafeBufferPointer { c in
            var block = 0
            for mcu in 0..<blocks.mcuCount {
                if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 {
                    writer.flush()
                    writer.append([0xFF, UInt8(0xD0 + restartIndex)])
                    restartIndex = (restartIndex + 1) & 7
                    predictors = [0, 0, 0]
                }
                for component in layout {
                    let table = component == 0 ? 0 : 1
                    let b = c.baseAddress! + block * 64
                    let value = Int(b[0])
                    writeValue(value - predictors[component], dc[table], run: 0, into: &writer)
                    predictors[component] = value
                    let acTable = ac[table]
                    var run = 0
                    for k in 1..<64 {
                        let v = Int(b[k])
                        if v == 0 { run += 1; continue }
                        while run > 15 {
                            writer.write(acTable.codes[0xF0], Int(acTable.lengths[0xF0]))
                            run -= 16
                        }
                        writeValue(v, acTable, run: run, into: &writer)
                        run = 0
                    }
                    if run > 0 { writer.write(acTable.codes[0], Int(acTable.lengths[0])) }
                    block += 1
                }
            }
        }
    }

    /// Writes the symbol (run, category) and then the value's bits (ones' complement when negative).
    @inline(__always)
    private static func writeValue(_ value: Int, _ table: JPEGHuffmanEncoder, run: Int, into writer: inout JPEGBitWriter) {
        let size = category(value)
        let symbol = run << 4 | size
        writer.write(table.codes[symbol], Int(table.lengths[symbol]))
        if size > 0 {
            let bits = value < 0 ? value - 1 : value
            writer.write(UInt32(truncatingIfNeeded: bits), size)
        }
    }
}
