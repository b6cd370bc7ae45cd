/// Writes the scans of a progressive JPEG (ITU T.81 Annex G) from a whole
/// image's quantised blocks, each scan with Huffman tables made for it.
///
/// Every scan is coded twice: once to count its symbols, once to write them
/// with the optimal tables for those counts (a DHT segment before each SOS).
/// Blocks come as `JPEGEncoder` stores them: per MCU, the luma blocks row by
/// row then Cb and Cr, each transposed as `JPEGForwardDCT` writes it.
struct JPEGProgressiveEncoder {
    /// The longest end-of-band run one EOBn symbol can code (n = 14).
    static let longestEndOfBandRun = 0x7FFF

    let blocks: UnsafePointer<Int16>
    let width: Int
    let height: Int
    let mcusX: Int
    let mcusY: Int
    /// Luma blocks per MCU across and down (chroma has one of each).
    let lumaFactors: (horizontal: Int, vertical: Int)
    /// The component of each block of an MCU.
    let layout: [Int]
    /// Units (MCUs, or blocks in a one-component scan) between restart markers; 0 for none.
    let restartInterval: Int

    /// Writes DHT, SOS and the coded data of each scan of `script`, calling
    /// `checkCancellation` after each scan.
    func write(_ script: [JPEGProgressiveScan], into writer: inout JPEGBitWriter, checkCancellation: () throws -> Void) throws {
        // Every scan visits a block twice (counting, then writing) and most
        // scans need its mask at 1, 2 or 4: found once here instead.
        let blockCount = mcusX * mcusY * layout.count
        let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: blockCount * JPEGProgressiveEncoder.storedMasks)
        defer { masks.deallocate() }
        let order = JPEGEntropyEncoder.Order.shared
        for index in 0..<blockCount {
            for al in 0..<JPEGProgressiveEncoder.storedMasks {
                masks[index * JPEGProgressiveEncoder.storedMasks + al] =
                    JPEGEntropyEncoder.magnitudeMask(blocks + index * 64, atLeast: Int16(1 << al), order)
            }
        }
        for scan in script {
            let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 257)
            defer { counts.deallocate() }
            counts.initialize(repeating: 0, count: 2 * 257)
            var counter = SymbolCounter(counts: counts)
            code(scan, masks: masks, into: &counter)
            // A DC refinement scan has no Huffman symbols, so no tables.
            let tables = (0..<2).map { table -> JPEGHuffmanEncoder? in
                let frequencies = Array(UnsafeBufferPointer(start: counts + table * 257, count: 257))
                return frequencies.contains { $0 > 0 } ? JPEGHuffmanEncoder.optimal(frequencies: frequencies) : nil
            }
            for (index, table) in tables.enumerated() {
                if let table { writer.append(JPEGEncoder.dht(table, tableClass: scan.spectralStart == 0 ? 0 : 1, index: index)) }
            }
            var sos: [UInt8] = [0xFF, 0xDA, 0, UInt8(6 + 2 * scan.components.count), UInt8(scan.components.count)]
            for component in scan.components { sos += [UInt8(component + 1), component == 0 ? 0x00 : 0x11] }
            sos += [UInt8(scan.spectralStart), UInt8(scan.spectralEnd), UInt8(scan.successiveHigh << 4 | scan.successiveLow)]
            writer.append(sos)
            // `code << 8 | length` per symbol of tables 0 and 1, as JPEGEntropyEncoder keeps them.
            let entries = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * 256)
            defer { entries.deallocate() }
            for table in 0..<2 {
                for symbol in 0..<256 {
                    entries[table * 256 + symbol] = tables[table].map { $0.codes[symbol] << 8 | UInt32($0.lengths[symbol]) } ?? 0
                }
            }
            withUnsafeMutablePointer(to: &writer) { writer in
                var output = ScanWriter(writer: writer, entries: entries)
                code(scan, masks: masks, into: &output)
            }
            writer.flush()
            try checkCancellation()
        }
    }

    /// Where a scan's symbols go: counted for its tables, then written. A
    /// generic parameter, not closures, so each pass is compiled for its output
    /// (the counting pass computes no value bits).
    private protocol Output {
        /// A Huffman symbol of table 0 (luma) or 1 (chroma) and its `size` value bits.
        mutating func symbol(_ table: Int, _ symbol: Int, _ bits: UInt64, _ size: Int)
        /// Raw bits: refinement and correction bits (1 ≤ count ≤ 32).
        mutating func bits(_ bits: UInt64, _ count: Int)
        /// Restart marker `index` (mod 8) before the next unit.
        mutating func restart(_ index: Int)
    }

    /// The first pass: symbol counts, 257 per table (the last for the reserved code).
    private struct SymbolCounter: Output {
        let counts: UnsafeMutablePointer<Int>
        @inline(__always) func symbol(_ table: Int, _ symbol: Int, _ bits: UInt64, _ size: Int) { counts[table &* 257 &+ symbol] += 1 }
        @inline(__always) func bits(_ bits: UInt64, _ count: Int) {}
        @inline(__always) func restart(_ index: Int) {}
    }

    /// The second pass: codes and bits into the file.
    private struct ScanWriter: Output {
        let writer: UnsafeMutablePointer<JPEGBitWriter>
        /// `code << 8 | length` per symbol of tables 0 and 1.
        let entries: UnsafeMutablePointer<UInt32>
        @inline(__always) func symbol(_ table: Int, _ symbol: Int, _ bits: UInt64, _ size: Int) {
            let entry = entries[table &* 256 &+ symbol]
            writer.pointee.write(UInt64(entry &>> 8) &<< UInt64(size) | bits, Int(entry & 0xFF) + size)
        }
        @inline(__always) func bits(_ bits: UInt64, _ count: Int) { writer.pointee.write(bits, count) }
        func restart(_ index: Int) {
            writer.pointee.flush()
            writer.pointee.append([0xFF, UInt8(0xD0 + index & 7)])
        }
    }

    /// Magnitude masks kept per block: at least 1, 2 and 4 (successive
    /// approximation bits 0, 1 and 2, all the simple progression uses).
    static let storedMasks = 3

    /// Sends the symbols and bits of one scan, in order, to `output`. `masks`
    /// holds `storedMasks` magnitude masks per block (`magnitudeMask` at 1, 2, 4…).
    private func code<O: Output>(_ scan: JPEGProgressiveScan, masks: UnsafePointer<UInt64>, into output: inout O) {
        let order = JPEGEntropyEncoder.Order.shared
        let (ss, se, al) = (scan.spectralStart, scan.spectralEnd, scan.successiveLow)
        // Zigzag positions Ss...Se as a mask.
        let band = (se == 63 ? ~0 : (1 &<< UInt64(se + 1)) &- 1) & ~((1 &<< UInt64(ss)) &- 1) as UInt64
        var predictors: [Int32] = [0, 0, 0]
        // The end-of-band run so far, its table, and the correction bits of
        // its blocks (refinement scans: at most 63 a block, sent after the EOBn symbol).
        var endOfBandRun = 0
        var runTable = 0
        var runBits: [(bits: UInt64, count: Int)] = []
        func writeBits(_ value: UInt64, _ count: Int) {
            if count > 32 { output.bits(value &>> 32, count - 32) }
            if count > 0 { output.bits(value & 0xFFFF_FFFF, min(count, 32)) }
        }
        func endRun() {
            guard endOfBandRun > 0 else { return }
            let n = Int.bitWidth - 1 - endOfBandRun.leadingZeroBitCount
            output.symbol(runTable, n << 4, UInt64(endOfBandRun & ((1 << n) - 1)), n)
            for chunk in runBits { writeBits(chunk.bits, chunk.count) }
            endOfBandRun = 0
            runBits.removeAll(keepingCapacity: true)
        }
        func extendRun(table: Int, correctionBits: UInt64, count: Int) {
            endOfBandRun += 1
            runTable = table
            if count > 0 { runBits.append((correctionBits, count)) }
            if endOfBandRun == JPEGProgressiveEncoder.longestEndOfBandRun { endRun() }
        }
        /// Bit k set when zigzag coefficient k of `block` has a magnitude of at least 2^`bit`.
        func magnitudes(_ block: UnsafePointer<Int16>, atLeastBit bit: Int) -> UInt64 {
            bit < JPEGProgressiveEncoder.storedMasks
                ? masks[(block - blocks) / 64 * JPEGProgressiveEncoder.storedMasks + bit]
                : JPEGEntropyEncoder.magnitudeMask(block, atLeast: Int16(1 << bit), order)
        }
        func codeBlock(_ block: UnsafePointer<Int16>, component: Int) {
            let table = component == 0 ? 0 : 1
            if ss == 0 {
                if scan.isRefinement {
                    output.bits(UInt64((Int32(block[0]) >> Int32(al)) & 1), 1)
                } else {
                    let value = Int32(block[0]) >> Int32(al)     // arithmetic shift for DC (G.1.2.1)
                    let (size, valueBits) = JPEGEntropyEncoder.magnitude(value &- predictors[component])
                    predictors[component] = value
                    output.symbol(table, size, valueBits, size)
                }
                return
            }
            // Coefficients non-zero at bit Al, visited in zigzag order; the
            // zeros between two of them are a run.
            var remaining = magnitudes(block, atLeastBit: al) & band
            var last = ss - 1
            if !scan.isRefinement {
                // First AC scan (G.1.2.2): magnitudes shifted right by Al, zero
                // runs with ZRL, blocks ending in zeros joined into EOB runs.
                while remaining != 0 {
                    let k = remaining.trailingZeroBitCount
                    remaining &= remaining &- 1
                    endRun()
                    var run = k - last - 1
                    while run > 15 { output.symbol(table, 0xF0, 0, 0); run -= 16 }
                    let coefficient = Int32(block[order.transposedIndex[k]])
                    let magnitude = abs(coefficient) >> Int32(al)
                    let size = 32 - magnitude.leadingZeroBitCount
                    let valueBits = UInt64(UInt32(bitPattern: coefficient < 0 ? ~magnitude : magnitude)) & ((1 << UInt64(size)) - 1)
                    output.symbol(table, run << 4 | size, valueBits, size)
                    last = k
                }
                if last < se { extendRun(table: table, correctionBits: 0, count: 0) }
                return
            }
            // Refinement AC scan (G.1.2.3): coefficients becoming non-zero at
            // bit Al are coded as run/1 symbols with a sign bit; those already
            // non-zero (at bit Ah) get a correction bit, sent after the next symbol.
            let older = magnitudes(block, atLeastBit: scan.successiveHigh) & band
            let fresh = remaining & ~older
            let lastNew = fresh == 0 ? -1 : 63 - fresh.leadingZeroBitCount
            var run = 0
            var pending: UInt64 = 0, pendingCount = 0
            while remaining != 0 {
                let k = remaining.trailingZeroBitCount
                remaining &= remaining &- 1
                run += k - last - 1
                last = k
                // A ZRL only before a new coefficient: past the last one the
                // zeros join the end-of-band run. Every pending correction bit
                // belongs to a coefficient before the 16th zero, so all go now.
                while run > 15 && k <= lastNew {
                    endRun()
                    output.symbol(table, 0xF0, 0, 0)
                    run -= 16
                    writeBits(pending, pendingCount)
                    pending = 0; pendingCount = 0
                }
                let coefficient = block[order.transposedIndex[k]]
                if older & (1 &<< UInt64(k)) != 0 {
                    pending = pending << 1 | UInt64((Int32(abs(coefficient)) >> Int32(al)) & 1)
                    pendingCount += 1
                    continue
                }
                endRun()
                output.symbol(table, run << 4 | 1, coefficient < 0 ? 0 : 1, 1)
                writeBits(pending, pendingCount)
                pending = 0; pendingCount = 0
                run = 0
            }
            run += se - last
            if run > 0 || pendingCount > 0 { extendRun(table: table, correctionBits: pending, count: pendingCount) }
        }
        var restartIndex = 0
        var unit = 0
        func startUnit() {
            if restartInterval > 0 && unit > 0 && unit % restartInterval == 0 {
                endRun()
                output.restart(restartIndex)
                restartIndex += 1
                predictors = [0, 0, 0]
            }
            unit += 1
        }
        if scan.components.count == 1 {
            // A one-component scan visits the component's own blocks in raster
            // order, only those covering its samples (G.1.1.1.2, A.2.2).
            let component = scan.components[0]
            let (h, v) = factors(component)
            let columns = ((width * h + lumaFactors.horizontal - 1) / lumaFactors.horizontal + 7) / 8
            let rows = ((height * v + lumaFactors.vertical - 1) / lumaFactors.vertical + 7) / 8
            for row in 0..<rows {
                for column in 0..<columns {
                    startUnit()
                    codeBlock(block(component, row: row, column: column), component: component)
                }
            }
        } else {
            for my in 0..<mcusY {
                for mx in 0..<mcusX {
                    startUnit()
                    for component in scan.components {
                        let (h, v) = factors(component)
                        for by in 0..<v {
                            for bx in 0..<h {
                                codeBlock(block(component, row: my * v + by, column: mx * h + bx), component: component)
                            }
                        }
                    }
                }
            }
        }
        endRun()
    }

    /// Blocks per MCU across and down for `component`.
    private func factors(_ component: Int) -> (Int, Int) {
        component == 0 ? lumaFactors : (1, 1)
    }

    /// The stored block at `row`, `column` of `component`'s block grid.
    private func block(_ component: Int, row: Int, column: Int) -> UnsafePointer<Int16> {
        let (h, v) = factors(component)
        let mcu = (row / v) * mcusX + column / h
        let position = component == 0 ? (row % v) * h + column % h : layout.count - 3 + component
        return blocks + (mcu * layout.count + position) * 64
    }
}
