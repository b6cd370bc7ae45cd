/// Writes the scans of a progressive JPEG (ITU T.81 Annex G) from a whole
/// image's quantised blocks, each scan with Huffman tables made for it.
///
/// Each scan's symbols are listed and counted in one visit of its blocks,
/// then written from the list with the optimal tables for those counts (a
/// DHT segment before each SOS).
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
        // Most scans need a block's magnitude mask at 1, 2 or 4: found once here.
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
        var record = ScanRecord(capacity: blockCount * 10)
        defer { record.deallocate() }
        for scan in script {
            record.reset()
            code(scan, masks: masks, into: &record)
            let counts = record.counts
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
            record.replay(into: &writer, entries: entries)
            writer.flush()
            try checkCancellation()
        }
    }

    /// A scan's symbols and raw bits in order, counted as they are listed:
    /// the scan is written from this list with the tables its counts give,
    /// instead of visiting the blocks (most of them out of cache) again.
    ///
    /// Each event is 32 bits: value bits (at most 16) in the high half; then
    /// the kind (bits 14–15: 0 symbol, 1 raw bits, 2 restart), the table
    /// (bit 13), the symbol (bits 5–12) and the bit count (bits 0–4). Half a
    /// word per event halves the fresh pages the list touches, which cost
    /// more than the writing they save when the list is twice as large.
    private struct ScanRecord {
        /// Symbol counts, 257 per table (the last for the reserved code).
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 257)
        private(set) var events: UnsafeMutablePointer<UInt32>
        private(set) var count = 0
        private var capacity: Int

        /// A list with room for `capacity` events (ten a block covers the
        /// largest scan of the simple progression on photographs).
        init(capacity: Int) {
            self.capacity = max(capacity, 1024)
            events = .allocate(capacity: self.capacity)
        }

        /// Empties the list and the counts for the next scan.
        mutating func reset() {
            counts.initialize(repeating: 0, count: 2 * 257)
            count = 0
        }

        func deallocate() {
            counts.deallocate()
            events.deallocate()
        }

        /// A Huffman symbol of table 0 (luma) or 1 (chroma) and its `size` value bits.
        @inline(__always)
        mutating func symbol(_ table: Int, _ symbol: Int, _ bits: UInt64, _ size: Int) {
            counts[table &* 257 &+ symbol] += 1
            append(UInt32(truncatingIfNeeded: bits &<< 16 | UInt64(truncatingIfNeeded: table &<< 13 | symbol &<< 5 | size)))
        }

        /// Raw bits: refinement and correction bits (1 ≤ count ≤ 32), in events of at most 16.
        @inline(__always)
        mutating func bits(_ bits: UInt64, _ count: Int) {
            if count > 16 {
                append(UInt32(truncatingIfNeeded: (bits &>> UInt64(count &- 16)) &<< 16 | 1 << 14 | 16))
                append(UInt32(truncatingIfNeeded: (bits & ((1 &<< UInt64(count &- 16)) &- 1)) &<< 16 | 1 << 14
                              | UInt64(truncatingIfNeeded: count &- 16)))
            } else {
                append(UInt32(truncatingIfNeeded: bits &<< 16 | 1 << 14 | UInt64(truncatingIfNeeded: count)))
            }
        }

        /// Restart marker `index` (mod 8) before the next unit.
        mutating func restart(_ index: Int) {
            append(UInt32(2 << 14 | index & 7))
        }

        @inline(__always)
        private mutating func append(_ event: UInt32) {
            if count == capacity { grow() }
            events[count] = event
            count &+= 1
        }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: events, count: count)
            events.deallocate()
            events = larger
            capacity *= 2
        }

        /// Writes the listed events with `entries` (`code << 8 | length` per
        /// symbol of tables 0 and 1).
        func replay(into writer: inout JPEGBitWriter, entries: UnsafePointer<UInt32>) {
            for index in 0..<count {
                let event = events[index]
                let low = Int(truncatingIfNeeded: event & 0xFFFF), value = UInt64(event &>> 16)
                switch low &>> 14 {
                case 0:
                    let entry = entries[(low &>> 5) & 0x1FF], size = low & 31
                    writer.write(UInt64(entry &>> 8) &<< UInt64(size) | value, Int(entry & 0xFF) &+ size)
                case 1:
                    writer.write(value, low & 31)
                default:
                    writer.flush()
                    writer.append([0xFF, UInt8(0xD0 + low & 7)])
                }
            }
        }
    }

    /// Magnitude masks kept per block: at least 1, 2 and 4 (successive
    /// approximation bits 0, 1 and 2, all the simple progression uses).
    static let storedMasks = 3

    /// Lists the symbols and bits of one scan, in order, in `output`. `masks`
    /// holds `storedMasks` magnitude masks per block (`magnitudeMask` at 1, 2, 4…).
    private func code(_ scan: JPEGProgressiveScan, masks: UnsafePointer<UInt64>, into output: inout ScanRecord) {
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
