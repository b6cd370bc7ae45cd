/// Huffman-codes quantised blocks for a baseline scan (DC differences and
/// run-length AC symbols), or counts their symbols for optimised tables.
/// Blocks come transposed, as `JPEGForwardDCT` writes them.
///
/// Each block's nonzero coefficients are found at once as a 64-bit mask in
/// zigzag order, so runs of zeros cost one count-trailing-zeros, not one test
/// per coefficient, and only nonzero coefficients are read; each symbol and its
/// value bits go to the writer in one call.
struct JPEGEntropyEncoder: ~Copyable {
    /// Zigzag order over transposed blocks, as lookup tables.
    final class Order: @unchecked Sendable {   // Sendable: immutable after init (its tables are written only there).
        static let shared = Order()
        /// Entry k: the transposed index of zigzag coefficient k.
        let transposedIndex: UnsafeMutablePointer<Int>
        /// The same as bytes (a quarter of the cache lines, for the hot loop).
        let transposedOffset: UnsafeMutablePointer<UInt8>
        /// Eight tables of 256: table j maps byte j of a transposed-order mask to
        /// the same coefficients' bits in zigzag order.
        let maskBytes: UnsafeMutablePointer<UInt64>

        private init() {
            transposedIndex = .allocate(capacity: 64)
            transposedIndex.initialize(from: JPEGForwardDCT.zigzagFromTransposed, count: 64)
            transposedOffset = .allocate(capacity: 64)
            transposedOffset.initialize(from: JPEGForwardDCT.zigzagFromTransposed.map { UInt8($0) }, count: 64)
            var zigzagOf = [Int](repeating: 0, count: 64)
            for k in 0..<64 { zigzagOf[transposedIndex[k]] = k }
            maskBytes = .allocate(capacity: 8 * 256)
            for byte in 0..<8 {
                for value in 0..<256 {
                    var mask: UInt64 = 0
                    for bit in 0..<8 where value & (1 << bit) != 0 { mask |= 1 << UInt64(zigzagOf[byte * 8 + bit]) }
                    maskBytes[byte * 256 + value] = mask
                }
            }
        }
    }

    /// A Huffman table as the hot loop reads it: per symbol, code and length in one word.
    private struct Codes {
        /// `code << 8 | length`, indexed by symbol (length 0: no code).
        let entries: UnsafeMutablePointer<UInt32>
        /// For AC values −64...63 (most of them): the symbol's code and the
        /// value's bits already joined, `(code << size | bits) << 5 | total length`,
        /// indexed by `run << 7 | (value + 64)`, so such a coefficient costs one
        /// lookup instead of a category, a mask and a join.
        let small: UnsafeMutablePointer<UInt32>

        init(_ table: JPEGHuffmanEncoder) {
            entries = .allocate(capacity: 256)
            for symbol in 0..<256 {
                entries[symbol] = table.codes[symbol] << 8 | UInt32(table.lengths[symbol])
            }
            small = .allocate(capacity: 16 * 128)
            small.initialize(repeating: 0, count: 16 * 128)
            for run in 0..<16 {
                for value in -64...63 where value != 0 {
                    let (size, bits) = JPEGEntropyEncoder.magnitude(Int32(value))
                    let entry = entries[run << 4 | size]
                    let joined = UInt32(entry >> 8) << UInt32(size) | UInt32(bits)
                    small[run << 7 | (value + 64)] = joined << 5 | (entry & 0xFF + UInt32(size))
                }
            }
        }
    }

    private let dcCodes: [Codes]
    private let acCodes: [Codes]
    private var position: ScanPosition

    /// An encoder with tables 0 (luma) and, in colour, 1 (chroma).
    init(dc: [JPEGHuffmanEncoder], ac: [JPEGHuffmanEncoder], restartInterval: Int) {
        dcCodes = dc.map(Codes.init)
        acCodes = ac.map(Codes.init)
        position = ScanPosition(restartInterval: restartInterval)
    }

    deinit {
        for table in dcCodes + acCodes {
            table.entries.deallocate()
            table.small.deallocate()
        }
    }

    /// Codes `mcuCount` MCUs of blocks (64 coefficients each) laid out per MCU
    /// as `layout` says (the component of each block), continuing the scan.
    mutating func encode(_ blocks: UnsafePointer<Int16>, mcuCount: Int, layout: [Int], into writer: inout JPEGBitWriter) {
        let (dcCodes, acCodes) = (self.dcCodes, self.acCodes)
        let zigzag = Order.shared.transposedOffset
        position.forEachBlock(blocks, mcuCount: mcuCount, layout: layout, atRestart: { index in
            writer.flush()
            writer.append([0xFF, UInt8(0xD0 + index & 7)])
        }, { block, table, difference in
            let dc = dcCodes[table].entries, ac = acCodes[table].entries, small = acCodes[table].small
            writer.withCursor(room: JPEGBitWriter.blockRoom) { cursor in
                JPEGEntropyEncoder.encodeBlock(block, dcDifference: difference, dc: dc, ac: ac, small: small, zigzag: zigzag,
                                               into: &cursor)
            }
        })
    }

    /// Writes one block's symbols: the DC difference's category and bits, then
    /// each AC run/category (ZRLs for runs past 15) with its bits, and an EOB
    /// unless the last coefficient is nonzero. The nonzero mask turns each run
    /// of zeros into one count-trailing-zeros.
    @inline(__always)
    private static func encodeBlock(_ block: UnsafePointer<Int16>, dcDifference: Int32, dc: UnsafePointer<UInt32>,
                                    ac: UnsafePointer<UInt32>, small: UnsafePointer<UInt32>, zigzag: UnsafePointer<UInt8>,
                                    into cursor: inout JPEGBitWriter.Cursor) {
        @inline(__always)
        func put(_ entry: UInt32, _ size: Int, _ bits: UInt64) {
            cursor.write(UInt64(entry &>> 8) &<< UInt64(truncatingIfNeeded: size) | bits, Int(entry & 0xFF) &+ size)
        }
        let (size, bits) = magnitude(dcDifference)
        put(dc[size], size, bits)
        var remaining = nonzeroMask(block, Order.shared) & ~1
        var last = 0
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            var run = k &- last &- 1
            while run >= 16 {
                put(ac[0xF0], 0, 0)                               // ZRL: sixteen zeros
                run &-= 16
            }
            let value = Int32(block[Int(zigzag[k])])
            let offset = UInt32(bitPattern: value &+ 64)
            if offset < 128 {
                let entry = small[run &<< 7 | Int(offset)]
                cursor.write(UInt64(entry &>> 5), Int(entry & 31))
            } else {
                let (size, bits) = magnitude(value)
                put(ac[run &<< 4 | size], size, bits)
            }
            last = k
            remaining &= remaining &- 1
        }
        if last != 63 { put(ac[0], 0, 0) }                         // EOB
    }

    /// Symbol counts of a whole scan, for optimised tables: 257 per table
    /// (0 luma, 1 chroma), the last left for the reserved all-ones code.
    static func statistics(_ blocks: UnsafePointer<Int16>, mcuCount: Int, layout: [Int],
                           restartInterval: Int) -> (dc: [[Int]], ac: [[Int]]) {
        var dc = [[Int]](repeating: [Int](repeating: 0, count: 257), count: 2)
        var ac = dc
        var position = ScanPosition(restartInterval: restartInterval)
        position.forEachBlock(blocks, mcuCount: mcuCount, layout: layout, atRestart: { _ in }, { block, table, difference in
            forEachSymbol(block, dcDifference: difference) { isAC, symbol, _, _ in
                if isAC { ac[table][symbol] += 1 } else { dc[table][symbol] += 1 }
            }
        })
        return (dc, ac)
    }

    /// Where a scan has got to: the MCU count, restart intervals and each
    /// component's previous DC value.
    private struct ScanPosition {
        /// MCUs between restart markers; 0 for none.
        let restartInterval: Int
        var mcuIndex = 0
        var restartIndex = 0
        var predictors: (Int32, Int32, Int32) = (0, 0, 0)

        /// Visits every block of `mcuCount` MCUs with its Huffman table (0 luma,
        /// 1 chroma) and DC difference; `atRestart` runs before each MCU that
        /// begins a restart interval, with the interval's number.
        @inline(__always)
        mutating func forEachBlock(_ blocks: UnsafePointer<Int16>, mcuCount: Int, layout: [Int], atRestart: (Int) -> Void,
                                   _ body: (_ block: UnsafePointer<Int16>, _ table: Int, _ dcDifference: Int32) -> Void) {
            var block = blocks
            for _ in 0..<mcuCount {
                if restartInterval > 0 && mcuIndex > 0 && mcuIndex % restartInterval == 0 {
                    atRestart(restartIndex)
                    restartIndex += 1
                    predictors = (0, 0, 0)
                }
                for component in layout {
                    let dc = Int32(block[0])
                    let difference: Int32
                    switch component {
                    case 0: difference = dc &- predictors.0; predictors.0 = dc
                    case 1: difference = dc &- predictors.1; predictors.1 = dc
                    default: difference = dc &- predictors.2; predictors.2 = dc
                    }
                    body(block, component == 0 ? 0 : 1, difference)
                    block += 64
                }
                mcuIndex += 1
            }
        }
    }

    /// Visits a block's symbols in scan order: the DC difference's category,
    /// then each AC run/category (with ZRLs for runs past 15) and the final EOB,
    /// each with its value bits. `isAC` says which table the symbol belongs to.
    @inline(__always)
    private static func forEachSymbol(_ block: UnsafePointer<Int16>, dcDifference: Int32,
                                      _ emit: (_ isAC: Bool, _ symbol: Int, _ size: Int, _ bits: UInt64) -> Void) {
        let order = Order.shared
        let (size, bits) = magnitude(dcDifference)
        emit(false, size, size, bits)
        var remaining = nonzeroMask(block, order) & ~1
        var last = 0
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            var run = k - last - 1
            while run >= 16 {
                emit(true, 0xF0, 0, 0)                        // ZRL: sixteen zeros
                run -= 16
            }
            let (size, bits) = magnitude(Int32(block[order.transposedIndex[k]]))
            emit(true, run << 4 | size, size, bits)
            last = k
            remaining &= remaining &- 1
        }
        if last != 63 { emit(true, 0, 0, 0) }                 // EOB
    }

    /// JPEG's category (bit count) of `value` and its value bits: the low bits
    /// of `value`, or of `value − 1` when negative (ones' complement).
    @inline(__always)
    static func magnitude(_ value: Int32) -> (size: Int, bits: UInt64) {
        let sign = value &>> 31
        let size = 32 - ((value ^ sign) &- sign).leadingZeroBitCount
        let bits = UInt64(truncatingIfNeeded: UInt32(bitPattern: value &+ sign)) & ((1 &<< UInt64(size)) &- 1)
        return (size, bits)
    }

    /// Bit k set when zigzag coefficient k of the transposed block is nonzero.
    @inline(__always)
    static func nonzeroMask(_ block: UnsafePointer<Int16>, _ order: Order) -> UInt64 {
        zigzagMask(block, order) { v in
            // 1 in each nonzero lane (v | −v has its sign bit set exactly when v ≠ 0).
            narrow(((v | (0 &- v)) &>> 15) & 1)
        }
    }

    /// Bit k set when zigzag coefficient k of the transposed block has a
    /// magnitude of at least `threshold` (progressive scans: 1 << Al).
    @inline(__always)
    static func magnitudeMask(_ block: UnsafePointer<Int16>, atLeast threshold: Int16, _ order: Order) -> UInt64 {
        let limit = SIMD16<Int16>(repeating: threshold &- 1)
        return zigzagMask(block, order) { v in
            let sign = v &>> 15
            // 1 in each lane whose magnitude exceeds `limit` (the difference is then negative).
            return narrow(((limit &- ((v ^ sign) &- sign)) &>> 15) & 1)
        }
    }

    /// The low bytes of sixteen lanes (each 0 or 1), lane by lane: the generic
    /// SIMD narrowing initialiser is a call on this toolchain where it is not
    /// inlined; this form becomes one pack.
    @inline(__always)
    private static func narrow(_ v: SIMD16<Int16>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
                      UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
                      UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]), UInt8(truncatingIfNeeded: v[8]),
                      UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
                      UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]),
                      UInt8(truncatingIfNeeded: v[15]))
    }

    /// The zigzag-order mask of the lanes `flags` marks (0 or 1 in each of 16
    /// transposed coefficients from a group of them).
    @inline(__always)
    private static func zigzagMask(_ block: UnsafePointer<Int16>, _ order: Order, _ flags: (SIMD16<Int16>) -> SIMD16<UInt8>) -> UInt64 {
        let raw = UnsafeRawPointer(block)
        var mask: UInt64 = 0
        for group in 0..<4 {
            let words = unsafeBitCast(flags(raw.loadUnaligned(fromByteOffset: group * 32, as: SIMD16<Int16>.self)), to: SIMD2<UInt64>.self)
            // Gathers the low bit of each of eight bytes into one byte (no carries:
            // every partial product lands on its own bit).
            let low = (words[0] &* 0x0102_0408_1020_4080) &>> 56
            let high = (words[1] &* 0x0102_0408_1020_4080) &>> 56
            mask |= (low | high &<< 8) &<< UInt64(group * 16)
        }
        // From transposed to zigzag order, a byte at a time.
        var zigzag: UInt64 = 0
        for byte in 0..<8 { zigzag |= order.maskBytes[byte * 256 + Int(truncatingIfNeeded: mask &>> UInt64(byte * 8)) & 0xFF] }
        return zigzag
    }
}
