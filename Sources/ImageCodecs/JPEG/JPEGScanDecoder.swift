/// Decodes one scan's entropy-coded data into the components' coefficient
/// buffers: baseline (sequential) scans and the four kinds of progressive scan
/// (DC first/refine, AC first/refine), with restart intervals.
struct JPEGScanDecoder {
    let parser: JPEGParser
    let components: [JPEGComponent]
    let spectralStart: Int
    let spectralEnd: Int
    let successiveHigh: Int
    let successiveLow: Int
    var reader: JPEGBitReader
    /// Remaining blocks of an end-of-band run (progressive AC scans).
    var endOfBandRun = 0
    /// A copy of `jpegZigzagToNatural` read by the hot loops without bounds checks or
    /// global-initialisation checks. Allocated by `init`, freed when `decode()` (the
    /// one call each scan decoder gets) returns.
    private let zigzag: UnsafeMutablePointer<Int>
    /// Where a DC-only decode writes the AC coefficients it reads and discards.
    private let scratch: UnsafeMutablePointer<Int16>
    /// Streaming: the components' buffers hold one MCU row (one block row for
    /// a single-component scan), handed to this renderer as each completes.
    private let renderer: JPEGRowRenderer?

    init(parser: JPEGParser, components: [JPEGComponent], spectralStart: Int, spectralEnd: Int,
         successiveHigh: Int, successiveLow: Int, reader: JPEGBitReader, renderer: JPEGRowRenderer? = nil) {
        self.renderer = renderer
        self.parser = parser
        self.components = components
        self.spectralStart = spectralStart
        self.spectralEnd = spectralEnd
        self.successiveHigh = successiveHigh
        self.successiveLow = successiveLow
        self.reader = reader
        zigzag = .allocate(capacity: jpegZigzagToNatural.count)
        zigzag.initialize(from: jpegZigzagToNatural, count: jpegZigzagToNatural.count)
        scratch = .allocate(capacity: 64)
    }

    /// What a progressive scan codes (ITU T.81 G.1.2): the DC coefficients or
    /// an AC band, as a first pass or a refinement of one more bit.
    private enum ProgressiveKind { case dcFirst, dcRefine, acFirst, acRefine }

    /// What decoding a block needs from its component, as plain values and
    /// pointers so the hot loop does no reference counting (the parser keeps
    /// the components and tables alive for the whole scan), plus the
    /// component's DC predictor.
    private struct Target {
        let dcTable: JPEGHuffmanTable.Lookup?
        let acTable: JPEGHuffmanTable.Lookup?
        let coefficients: UnsafeMutablePointer<Int16>
        let flatBlocks: UnsafeMutablePointer<Bool>?
        let perBlock: Int
        let blocksPerLine: Int
        let horizontalSampling: Int
        let verticalSampling: Int
        var predictor = 0

        init(_ c: JPEGComponent) {
            dcTable = c.dcTable?.lookup
            acTable = c.acTable?.lookup
            coefficients = c.coefficients!
            flatBlocks = c.flatBlocks
            perBlock = c.coefficientsPerBlock
            blocksPerLine = c.blocksPerLine
            horizontalSampling = c.horizontalSampling
            verticalSampling = c.verticalSampling
        }
    }

    mutating func decode() throws {
        defer { zigzag.deallocate(); scratch.deallocate() }
        // nil: a baseline (sequential) scan.
        let progressive: ProgressiveKind?
        if !parser.isProgressive {
            progressive = nil
        } else if spectralStart == 0 {
            progressive = successiveHigh == 0 ? .dcFirst : .dcRefine
        } else {
            progressive = successiveHigh == 0 ? .acFirst : .acRefine
        }
        // Baseline scans code both; progressive ones one or the other.
        let codesDC = progressive == nil || progressive == .dcFirst || progressive == .dcRefine
        let codesAC = progressive == nil || progressive == .acFirst || progressive == .acRefine
        for c in components {
            if (progressive == nil || progressive == .dcFirst) && c.dcTable == nil {
                throw JPEGError.invalidSegment("scan uses an undefined DC Huffman table")
            }
            if codesAC && c.acTable == nil {
                throw JPEGError.invalidSegment("scan uses an undefined AC Huffman table")
            }
            if codesDC {
                guard parser.quantizationTables[c.quantizationTableIndex] != nil else {
                    throw JPEGError.invalidSegment("component \(c.id) uses an undefined quantisation table")
                }
            }
        }
        // A component kept DC-only (1/8 scale) needs nothing from progressive
        // AC scans: skip straight to the marker after their data.
        let skip = components.allSatisfy { $0.coefficientsPerBlock == 1 } && progressive != nil && codesAC
        let single = components.count == 1
        let unitsX = single ? components[0].usedBlocksPerLine : parser.mcusX
        let unitsY = single ? components[0].usedBlocksPerColumn : parser.mcusY
        let total = unitsX * unitsY
        let interval = parser.restartInterval
        let streaming = renderer != nil
        var targets = components.map(Target.init)
        // The blocks of one unit in scan order, each as its component and its
        // place: a loop over these, rather than over components and sampling
        // factors, keeps the per-block work (mostly tiny on flat images) to
        // one multiply-add.
        var slots: [BlockSlot] = []
        for (index, t) in targets.enumerated() {
            let rows = single ? 1 : t.verticalSampling, columns = single ? 1 : t.horizontalSampling
            for by in 0..<rows {
                for bx in 0..<columns {
                    slots.append(BlockSlot(target: index, first: by * t.blocksPerLine + bx,
                                           columnStep: columns, rowStep: rows * t.blocksPerLine))
                }
            }
        }
        // Baseline scans read through this copy of the reader's state, kept in
        // registers across blocks; `reader` is brought up to date around
        // restarts and at the end. Other scans use `reader` itself.
        let baseline = progressive == nil
        var bits = reader.state
        try targets.withUnsafeMutableBufferPointer { targets in
            try slots.withUnsafeBufferPointer { slots in
                defer { if baseline { reader.state = bits } }
                var restartIndex = 0
                var unit = 0
                // Counters rather than divisions per unit: the unit's column and
                // row, and the units left in the restart interval.
                var ux = 0, uy = 0
                var untilRestart = interval
                while unit < total && !skip {
                    if interval > 0 && untilRestart == 0 {
                        if baseline { reader.state = bits }
                        defer { if baseline { bits = reader.state } }
                        try reader.restart(expected: restartIndex)
                        restartIndex += 1
                        endOfBandRun = 0
                        for i in targets.indices { targets[i].predictor = 0 }
                        untilRestart = interval
                    }
                    untilRestart -= 1
                    // Streamed buffers hold only the current unit row.
                    let bufferRow = streaming ? 0 : uy
                    if let progressive {
                        for slot in slots {
                            let t = targets[slot.target]
                            try decodeBlock(progressive, &targets[slot.target],
                                            t.coefficients + slot.block(column: ux, row: bufferRow) &* t.perBlock)
                        }
                    } else {
                        for slot in slots {
                            let index = slot.block(column: ux, row: bufferRow)
                            let t = targets[slot.target]
                            try decodeBaseline(&targets[slot.target], t.coefficients + index &* t.perBlock,
                                               t.flatBlocks.map { $0 + index }, &bits)
                        }
                    }
                    unit += 1
                    ux += 1
                    if ux == unitsX {
                        renderer?.consumeBand(uy)
                        try parser.checkCancellation()
                        ux = 0
                        uy += 1
                    }
                }
            }
        }
        if !skip { try reader.checkPaddingUse() }
        // Leave `position` at the marker that follows the scan data.
        let bytes = reader.bytes
        var p = reader.position
        while p + 1 < bytes.count {
            if bytes[p] == 0xFF && bytes[p + 1] != 0 && !(0xD0...0xD7).contains(bytes[p + 1]) { break }
            p += 1
        }
        reader.position = min(p, bytes.count)
        // No marker follows: the file ends inside or right after this scan's
        // data. A skipped scan is not checked here; the parser refuses a
        // progressive file without its EOI.
        if p + 1 >= bytes.count && !skip { try reader.checkNoPaddingUsed() }
    }

    /// One block of a unit: its index among its component's blocks in unit
    /// (0, 0), and how far that moves per unit across and per unit row down.
    private struct BlockSlot {
        let target: Int
        let first: Int
        let columnStep: Int
        let rowStep: Int

        /// The block's index in the unit at `column`, `row`.
        @inline(__always)
        func block(column: Int, row: Int) -> Int {
            first &+ column &* columnStep &+ row &* rowStep
        }
    }

    /// One block of a progressive scan.
    private mutating func decodeBlock(_ kind: ProgressiveKind, _ c: inout Target, _ block: UnsafeMutablePointer<Int16>) throws {
        switch kind {
        case .dcFirst: try decodeDCFirst(&c, block)
        case .dcRefine:
            if try reader.bit() != 0 { block[0] |= Int16(truncatingIfNeeded: 1 << successiveLow) }
        case .acFirst: try decodeACFirst(c, block)
        case .acRefine: try decodeACRefine(c, block)
        }
    }

    @inline(__always)
    private mutating func decodeDC(_ c: inout Target) throws -> Int {
        let table = c.dcTable!
        if reader.bitCount < 16 { try reader.refill() }
        let packed = table.fastValue[Int(reader.buffer >> UInt64(64 - JPEGHuffmanTable.lookupBits))]
        let diff: Int
        // Run 0 (a difference) or 0xFF (symbol 0: no difference); other runs
        // only occur in corrupt DC tables and take the checked path below.
        let run = (packed >> 8) & 0xFF
        if packed != 0 && (run == 0 || run == 0xFF) {
            let length = Int(packed & 0xFF)
            reader.buffer <<= UInt64(length)
            reader.bitCount -= length
            diff = Int(packed >> 16)
        } else {
            let s = try reader.decode(table)
            guard s <= 16 else { throw JPEGError.corruptScan("DC difference of \(s) bits") }
            diff = try reader.receiveExtend(s)
        }
        c.predictor = JPEGScanDecoder.predict(c.predictor, diff)
        return c.predictor
    }

    /// The DC predictor after adding `diff`, wrapped to 32 bits so hostile
    /// data cannot overflow it.
    @inline(__always)
    private static func predict(_ predictor: Int, _ diff: Int) -> Int {
        Int(Int32(truncatingIfNeeded: predictor &+ diff))
    }

    /// One baseline block: the DC difference, then the AC coefficients; in
    /// `flat` (streamed scans) whether there were none.
    ///
    /// Reads through `bits`, the reader's buffer, bit count and position as
    /// plain values (the scan loop's copy, in registers), going back to
    /// `reader` only around the rare checked calls (byte-by-byte refill), so
    /// the loop-carried bit buffer never sits in memory behind an inout access.
    @inline(__always)
    private mutating func decodeBaseline(_ c: inout Target, _ block: UnsafeMutablePointer<Int16>,
                                         _ flat: UnsafeMutablePointer<Bool>?, _ bits: inout JPEGBitReader.State) throws {
        let bytes = reader.bytes
        var buffer = bits.buffer, bitCount = bits.bitCount, position = bits.position
        defer { bits = JPEGBitReader.State(buffer: buffer, bitCount: bitCount, position: position) }
        /// Ensures at least 16 bits are buffered.
        @inline(__always) func fill() throws {
            if bitCount < 16 && !JPEGBitReader.refillWhole(bytes, &position, &buffer, &bitCount) {
                reader.buffer = buffer; reader.bitCount = bitCount; reader.position = position
                try reader.refillBytewise()
                buffer = reader.buffer; bitCount = reader.bitCount; position = reader.position
            }
        }
        /// Consumes `count` (1...16) bits, refilling first when fewer are
        /// buffered, and sign-extends them (JPEG's EXTEND).
        @inline(__always) func extend(_ count: Int) throws -> Int {
            if bitCount < count {
                reader.buffer = buffer; reader.bitCount = bitCount; reader.position = position
                try reader.refill()
                buffer = reader.buffer; bitCount = reader.bitCount; position = reader.position
            }
            let value = Int(buffer &>> UInt64(64 &- count))
            buffer &<<= UInt64(count)
            bitCount &-= count
            return value < (1 &<< (count &- 1)) ? value &- (1 &<< count) &+ 1 : value
        }

        // DC: a difference in one lookup when its code and bits fit the table.
        let dcTable = c.dcTable!
        try fill()
        let dcPacked = dcTable.fastValue[Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))]
        let diff: Int
        // Run 0 (a difference) or 0xFF (symbol 0: no difference); other runs
        // only occur in corrupt DC tables and take the checked path below.
        let dcRun = (dcPacked >> 8) & 0xFF
        if dcPacked != 0 && (dcRun == 0 || dcRun == 0xFF) {
            buffer &<<= UInt64(truncatingIfNeeded: dcPacked)   // by its low byte, as below
            bitCount &-= Int(dcPacked & 0xFF)
            diff = Int(dcPacked >> 16)
        } else {
            let (s, length) = try JPEGBitReader.symbol(buffer, dcTable)
            buffer &<<= UInt64(length)
            bitCount &-= length
            guard s <= 16 else { throw JPEGError.corruptScan("DC difference of \(s) bits") }
            diff = s == 0 ? 0 : try extend(s)
        }
        c.predictor = JPEGScanDecoder.predict(c.predictor, diff)
        block[0] = Int16(truncatingIfNeeded: c.predictor)

        let ac = c.acTable!
        let fastValue = ac.fastValue
        // DC-only storage keeps one coefficient per block: AC values are decoded
        // (the bit stream must be read) but written to a scratch block.
        let zigzag = self.zigzag, target = c.perBlock == 64 ? block : scratch
        // k < 64 at the top of each pass and runs are at most 15, so a
        // coefficient's index is at most 78: inside `zigzag`'s 80 entries,
        // whose last 16 send corrupt overruns to a harmless slot (and the
        // block is refused after the loop).
        var k = 1
        try fill()
        // The next lookup's index, always the top bits of `buffer`; at the
        // top of each pass at least 16 bits are buffered.
        var peek = Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
        // Loads of eight bytes from `position` stay inside the data when
        // `position` is below this: one unsigned compare, which also rules
        // out a negative position, and no optional base address in the loop.
        let loadEnd = UInt(max(0, bytes.count &- 7))
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { throw JPEGError.truncated("entropy-coded scan data") }
        while k < 64 {
            // Fast path: symbol and extra bits in one lookup.
            let packed = fastValue[peek]
            if packed != 0 {
                // The length is the entry's low byte (at most 26): a masking
                // shift by the whole entry shifts by it, with no extraction
                // on the loop's critical path (load → shift → next load).
                let shifted = buffer &<< UInt64(truncatingIfNeeded: packed)
                bitCount &-= Int(packed & 0xFF)
                if packed & 0xFF00 == 0xFF00 { buffer = shifted; break }  // end of block
                k &+= Int((packed >> 8) & 0xFF)
                target[zigzag[k]] = Int16(truncatingIfNeeded: packed >> 16)
                k &+= 1
                // Top up every pass, without a branch on the bit count, when
                // the next eight bytes hold no 0xFF: the new bits are ORed in
                // below the valid ones while the next index comes from the
                // bits already there, so the refill stays off the
                // load → shift → load chain. Bits past `bitCount` may then
                // be set, always to the data's own next bits, which every
                // later refill ORs in again unchanged.
                buffer = shifted
                if UInt(bitPattern: position) < loadEnd {
                    let word = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                    if (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
                        if bitCount >= JPEGHuffmanTable.lookupBits {
                            peek = Int(shifted &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
                            buffer |= word &>> UInt64(bitCount)
                        } else {
                            buffer |= word &>> UInt64(bitCount)
                            peek = Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
                        }
                        position &+= (63 &- bitCount) &>> 3
                        bitCount |= 56
                        continue
                    }
                }
                try fill()
                peek = Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
                continue
            }
            let (rs, length) = try JPEGBitReader.symbol(buffer, ac)
            buffer &<<= UInt64(length)
            bitCount &-= length
            let r = rs >> 4, s = rs & 15
            if s == 0 {
                if r != 15 { break }
                k &+= 16
                try fill()
                peek = Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
                continue
            }
            k &+= r
            let value = try extend(s)
            target[zigzag[k]] = Int16(truncatingIfNeeded: value)
            k &+= 1
            try fill()
            peek = Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))
        }
        guard k <= 64 else { throw JPEGError.corruptScan("AC coefficients run past the end of a block") }
        // The AC loop ends at k = 1 only at an end of block before any coefficient.
        flat?.pointee = k == 1
    }

    private mutating func decodeDCFirst(_ c: inout Target, _ block: UnsafeMutablePointer<Int16>) throws {
        let dc = try decodeDC(&c)
        block[0] = Int16(truncatingIfNeeded: dc << successiveLow)
    }

    private mutating func decodeACFirst(_ c: Target, _ block: UnsafeMutablePointer<Int16>) throws {
        if endOfBandRun > 0 { endOfBandRun -= 1; return }
        let ac = c.acTable!
        var k = spectralStart
        while k <= spectralEnd {
            let rs = try reader.decode(ac)
            let r = rs >> 4, s = rs & 15
            if s == 0 {
                if r < 15 {
                    endOfBandRun = (1 << r) - 1
                    if r > 0 { endOfBandRun += try reader.bits(r) }
                    break
                }
                k += 16
                continue
            }
            k += r
            guard k <= spectralEnd else { throw JPEGError.corruptScan("AC coefficients run past the spectral band") }
            let value = try reader.receiveExtend(s)
            block[zigzag[k]] = Int16(truncatingIfNeeded: value << successiveLow)
            k += 1
        }
    }

    /// Successive-approximation AC refinement (ITU T.81 G.1.2.3): adds one bit
    /// to coefficients already non-zero and places newly non-zero ones.
    private mutating func decodeACRefine(_ c: Target, _ block: UnsafeMutablePointer<Int16>) throws {
        let plus = 1 << successiveLow
        let minus = -plus
        var k = spectralStart
        if endOfBandRun <= 0 {
            let ac = c.acTable!
            while k <= spectralEnd {
                let rs = try reader.decode(ac)
                var r = rs >> 4
                let s = rs & 15
                var value = 0
                if s == 0 {
                    if r < 15 {
                        endOfBandRun = 1 << r
                        if r > 0 { endOfBandRun += try reader.bits(r) }
                        break
                    }
                    // r == 15: skip 16 zero coefficients (refining non-zero ones on the way).
                } else {
                    guard s == 1 else { throw JPEGError.corruptScan("refinement coefficient of \(s) bits") }
                    value = try reader.bit() != 0 ? plus : minus
                }
                while k <= spectralEnd {
                    let index = zigzag[k]
                    let coefficient = Int(block[index])
                    if coefficient != 0 {
                        if try reader.bit() != 0 && (coefficient & plus) == 0 {
                            block[index] = Int16(truncatingIfNeeded: coefficient >= 0 ? coefficient + plus : coefficient + minus)
                        }
                    } else {
                        if r == 0 {
                            if value != 0 { block[index] = Int16(truncatingIfNeeded: value) }
                            k += 1
                            break
                        }
                        r -= 1
                    }
                    k += 1
                }
            }
        }
        if endOfBandRun > 0 {
            // Inside an end-of-band run: only refine coefficients already non-zero.
            while k <= spectralEnd {
                let index = zigzag[k]
                let coefficient = Int(block[index])
                if coefficient != 0, try reader.bit() != 0, (coefficient & plus) == 0 {
                    block[index] = Int16(truncatingIfNeeded: coefficient >= 0 ? coefficient + plus : coefficient + minus)
                }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
