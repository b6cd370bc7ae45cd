/// Walks a JPEG file's marker segments: reads tables, the frame header, EXIF
/// orientation and the Adobe colour transform, and hands each scan to
/// `JPEGScanDecoder`. Every length and index is checked against the data.
final class JPEGParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumPixelCount: Int
    /// The most scans a file may have (libjpeg-turbo's scan limit): refinement
    /// scans are cheap to write and each one walks the whole image.
    let maximumScanCount: Int
    var position = 0

    var width = 0
    var height = 0
    var isProgressive = false
    var components: [JPEGComponent] = []
    var maxH = 1
    var maxV = 1
    var mcusX = 0
    var mcusY = 0
    /// Dequantisation tables in natural order (not zigzag).
    var quantizationTables: [[Int32]?] = [nil, nil, nil, nil]
    var dcTables: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    var acTables: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    var restartInterval = 0
    /// The Adobe APP14 transform flag (0: none, 1: YCbCr, 2: YCCK), nil without APP14.
    var adobeTransform: Int?
    var sawJFIF = false
    var orientation: ImageOrientation = .up
    var frameSeen = false
    var scanCount = 0
    /// Per component and coefficient (as libjpeg's `coef_bits`,
    /// indexed by spectral position): the successive-approximation bit the last
    /// progressive scan left it at, -1 before its first scan.
    private var coefficientBits: [[Int]] = []
    /// Set to render while decoding: the scale, and the renderer made at the
    /// first scan. A baseline scan holding every component streams into it.
    var renderScale: JPEGScale?
    /// Called after each row of MCUs and before each scan; whatever it throws
    /// ends the decode (a caller's cancellation or deadline).
    var checkCancellation: () throws -> Void = {}
    private(set) var renderer: JPEGRowRenderer?

    init(bytes: UnsafeBufferPointer<UInt8>, maximumPixelCount: Int, maximumScanCount: Int) {
        self.bytes = bytes
        self.maximumPixelCount = maximumPixelCount
        self.maximumScanCount = maximumScanCount
    }

    private func byte(_ i: Int) -> Int { Int(bytes[i]) }
    private func uint16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }

    /// Parses segments until the frame header (`headerOnly`) or EOI, decoding
    /// every scan in between.
    func parse(headerOnly: Bool) throws {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw JPEGError.notJPEG }
        position = 2
        while true {
            // Find the next marker, skipping fill bytes (and, tolerantly, stray data).
            guard position < bytes.count else {
                if frameSeen && scanCount > 0 && !headerOnly { return try checkCompleteWithoutEOI() }
                throw JPEGError.truncated(frameSeen ? "the segment list before a scan" : "the header before the frame (SOF)")
            }
            if bytes[position] != 0xFF { position += 1; continue }
            guard position + 1 < bytes.count else { position += 1; continue }
            let marker = byte(position + 1)
            position += 2
            if marker == 0xFF { position -= 1; continue }
            if marker == 0x00 || (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            if marker == 0xD9 {
                guard frameSeen, scanCount > 0 else { throw JPEGError.invalidSegment("end of image before any scan") }
                return
            }
            if marker == 0xD8 { throw JPEGError.invalidSegment("second SOI marker") }
            guard position + 2 <= bytes.count else { throw JPEGError.truncated("a marker segment length") }
            let length = uint16(position)
            guard length >= 2 else { throw JPEGError.invalidSegment("segment length \(length) is below 2") }
            let start = position + 2
            let end = position + length
            guard end <= bytes.count else { throw JPEGError.truncated("marker segment FF\(String(marker, radix: 16, uppercase: true))") }
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                try readFrame(start, end, progressive: marker == 0xC2)
                if headerOnly { return }
            case 0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF:
                throw JPEGError.unsupported("lossless or hierarchical JPEG (SOF\(marker - 0xC0))")
            case 0xC9, 0xCA:
                throw JPEGError.unsupported("arithmetic coding (SOF\(marker - 0xC0))")
            case 0xCC:
                throw JPEGError.unsupported("arithmetic coding (DAC segment)")
            case 0xC4:
                try readHuffmanTables(start, end)
            case 0xDB:
                try readQuantizationTables(start, end)
            case 0xDD:
                guard end - start >= 2 else { throw JPEGError.invalidSegment("DRI segment too short") }
                restartInterval = uint16(start)
            case 0xE0:
                if end - start >= 5, bytes[start] == 0x4A, bytes[start + 1] == 0x46, bytes[start + 2] == 0x49,
                   bytes[start + 3] == 0x46, bytes[start + 4] == 0 { sawJFIF = true }
            case 0xE1:
                if let found = ExifReader.orientation(inAPP1: UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    orientation = found
                }
            case 0xEE:
                if end - start >= 12, bytes[start] == 0x41, bytes[start + 1] == 0x64, bytes[start + 2] == 0x6F,
                   bytes[start + 3] == 0x62, bytes[start + 4] == 0x65 {
                    adobeTransform = byte(start + 11)
                }
            case 0xDA:
                guard frameSeen else { throw JPEGError.invalidSegment("scan (SOS) before the frame header (SOF)") }
                guard scanCount < maximumScanCount else { throw JPEGError.tooManyScans(limit: maximumScanCount) }
                try checkCancellation()
                let scanEnd = try readScanHeaderAndDecode(start, end)
                scanCount += 1
                position = scanEnd
                continue
            default:
                break  // APPn, COM and unknown segments are skipped.
            }
            position = end
        }
    }

    private func readFrame(_ start: Int, _ end: Int, progressive: Bool) throws {
        guard !frameSeen else { throw JPEGError.invalidSegment("more than one frame header (SOF)") }
        guard end - start >= 6 else { throw JPEGError.invalidSegment("SOF segment too short") }
        let precision = byte(start)
        guard precision == 8 else { throw JPEGError.unsupported("\(precision)-bit sample precision") }
        height = uint16(start + 1)
        width = uint16(start + 3)
        let count = byte(start + 5)
        guard width > 0 else { throw JPEGError.invalidSegment("frame width is 0") }
        guard height > 0 else { throw JPEGError.unsupported("a frame height of 0 (defined later by DNL)") }
        guard count == 1 || count == 3 || count == 4 else {
            throw JPEGError.unsupported("\(count) colour components")
        }
        guard end - start >= 6 + count * 3 else { throw JPEGError.invalidSegment("SOF segment too short for its components") }
        guard width * height <= maximumPixelCount else {
            throw JPEGError.tooManyPixels(width: width, height: height, limit: maximumPixelCount)
        }
        components = []
        for i in 0..<count {
            let p = start + 6 + i * 3
            let h = byte(p + 1) >> 4, v = byte(p + 1) & 15, tq = byte(p + 2)
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw JPEGError.invalidSegment("sampling factors \(h)×\(v) outside 1...4")
            }
            guard tq < 4 else { throw JPEGError.invalidSegment("quantisation table index \(tq) above 3") }
            let id = byte(p)
            guard !components.contains(where: { $0.id == id }) else {
                throw JPEGError.invalidSegment("two components with id \(id)")
            }
            components.append(JPEGComponent(id: id, horizontalSampling: h, verticalSampling: v, quantizationTableIndex: tq))
        }
        maxH = components.map(\.horizontalSampling).max() ?? 1
        maxV = components.map(\.verticalSampling).max() ?? 1
        for c in components where maxH % c.horizontalSampling != 0 || maxV % c.verticalSampling != 0 {
            throw JPEGError.unsupported("sampling factors that do not divide the largest (\(c.horizontalSampling)×\(c.verticalSampling) in \(maxH)×\(maxV))")
        }
        mcusX = (width + 8 * maxH - 1) / (8 * maxH)
        mcusY = (height + 8 * maxV - 1) / (8 * maxV)
        isProgressive = progressive
        coefficientBits = Array(repeating: Array(repeating: -1, count: 64), count: count)
        frameSeen = true
    }

    /// Whether component `c` needs only each block's DC coefficient: when the
    /// render scale makes its blocks one sample (1/8 scale, and the component
    /// not subsampled). Then 1/64 of the coefficient memory is kept, and its
    /// progressive AC scans are skipped unread. Subsampled chroma at 1/8 is
    /// decoded with a larger IDCT and keeps its coefficients.
    private func keepsOnlyDC(_ c: JPEGComponent) -> Bool {
        guard let scale = renderScale else { return false }
        return scale.componentBlock(subsampling: maxH / c.horizontalSampling).samples == 1
            && scale.componentBlock(subsampling: maxV / c.verticalSampling).samples == 1
    }

    /// Blocks covering component `c`'s samples (what a scan of it alone codes).
    private func usedBlocks(_ c: JPEGComponent) -> Int {
        let samplesX = (width * c.horizontalSampling + maxH - 1) / maxH
        let samplesY = (height * c.verticalSampling + maxV - 1) / maxV
        return ((samplesX + 7) / 8) * ((samplesY + 7) / 8)
    }

    /// Checks a progressive scan against the ones before it (ITU T.81 G.1.1.1.1,
    /// as libjpeg's `coef_bits`, but refused instead of warned about): a
    /// coefficient's first scan has Ah = 0, each refinement takes Ah from the
    /// previous scan's Al and lowers it by one, and AC scans follow the DC scan.
    /// So no coefficient is read more than 14 times, whatever the file says.
    private func checkSuccession(_ scanComponents: [JPEGComponent], ss: Int, se: Int, ah: Int, al: Int) throws {
        guard ah == 0 || al == ah - 1 else {
            throw JPEGError.invalidSegment("refinement scan Ah=\(ah) Al=\(al): Al must be Ah - 1")
        }
        for c in scanComponents {
            guard let index = components.firstIndex(where: { $0 === c }) else { continue }
            if ss > 0 && coefficientBits[index][0] < 0 {
                throw JPEGError.invalidSegment("AC scan of component \(c.id) before its DC scan")
            }
            for k in ss...se {
                let previous = coefficientBits[index][k]
                guard ah == 0 ? previous < 0 : previous == ah else {
                    throw JPEGError.invalidSegment(previous < 0
                        ? "refinement scan (Ah=\(ah)) of component \(c.id), coefficient \(k), before its first scan"
                        : "scan of component \(c.id), coefficient \(k) with Ah=\(ah) after a scan that left Al=\(previous)")
                }
                coefficientBits[index][k] = al
            }
        }
    }

    private func readHuffmanTables(_ start: Int, _ end: Int) throws {
        var p = start
        while p < end {
            guard p + 17 <= end else { throw JPEGError.invalidSegment("DHT segment too short") }
            let tc = byte(p) >> 4, th = byte(p) & 15
            guard tc <= 1, th <= 3 else { throw JPEGError.invalidSegment("Huffman table class \(tc) / index \(th)") }
            var counts = [Int](repeating: 0, count: 16)
            for i in 0..<16 { counts[i] = byte(p + 1 + i) }
            let total = counts.reduce(0, +)
            p += 17
            guard total <= 256, p + total <= end else { throw JPEGError.invalidSegment("DHT segment too short for its symbols") }
            let symbols = Array(bytes[p..<(p + total)])
            p += total
            let table = try JPEGHuffmanTable(counts: counts, symbols: symbols)
            if tc == 0 { dcTables[th] = table } else { acTables[th] = table }
        }
    }

    private func readQuantizationTables(_ start: Int, _ end: Int) throws {
        var p = start
        while p < end {
            let pq = byte(p) >> 4, tq = byte(p) & 15
            guard pq <= 1, tq <= 3 else { throw JPEGError.invalidSegment("quantisation table precision \(pq) / index \(tq)") }
            let size = pq == 0 ? 64 : 128
            guard p + 1 + size <= end else { throw JPEGError.invalidSegment("DQT segment too short") }
            var table = [Int32](repeating: 0, count: 64)
            for k in 0..<64 {
                let value = pq == 0 ? byte(p + 1 + k) : uint16(p + 1 + 2 * k)
                table[jpegZigzagToNatural[k]] = Int32(value)
            }
            quantizationTables[tq] = table
            p += 1 + size
        }
    }

    /// Reads an SOS header, decodes the scan and returns where its entropy-coded data ends.
    private func readScanHeaderAndDecode(_ start: Int, _ end: Int) throws -> Int {
        guard end - start >= 1 else { throw JPEGError.invalidSegment("SOS segment too short") }
        let count = byte(start)
        guard count >= 1, count <= 4, end - start >= 1 + count * 2 + 3 else {
            throw JPEGError.invalidSegment("SOS segment with \(count) components")
        }
        var scanComponents: [JPEGComponent] = []
        for i in 0..<count {
            let p = start + 1 + i * 2
            let id = byte(p)
            guard let c = components.first(where: { $0.id == id }) else {
                throw JPEGError.invalidSegment("scan names unknown component \(id)")
            }
            guard !scanComponents.contains(where: { $0 === c }) else {
                throw JPEGError.invalidSegment("scan names component \(id) twice")
            }
            let td = byte(p + 1) >> 4, ta = byte(p + 1) & 15
            guard td <= 3, ta <= 3 else { throw JPEGError.invalidSegment("Huffman table index above 3") }
            c.dcTable = dcTables[td]
            c.acTable = acTables[ta]
            scanComponents.append(c)
        }
        let p = start + 1 + count * 2
        let ss = byte(p), se = byte(p + 1), ah = byte(p + 2) >> 4, al = byte(p + 2) & 15
        if isProgressive {
            guard ss <= se, se <= 63, ah <= 13, al <= 13, (ss == 0) == (se == 0) else {
                throw JPEGError.invalidSegment("progressive scan parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)")
            }
            guard ss == 0 || count == 1 else { throw JPEGError.invalidSegment("progressive AC scan with several components") }
        } else {
            guard ss == 0, se == 63, ah == 0, al == 0 else {
                throw JPEGError.invalidSegment("baseline scan parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)")
            }
        }
        let blocksInMCU = scanComponents.reduce(0) { $0 + $1.horizontalSampling * $1.verticalSampling }
        guard count == 1 || blocksInMCU <= 10 else { throw JPEGError.invalidSegment("more than 10 blocks per MCU") }
        if isProgressive { try checkSuccession(scanComponents, ss: ss, se: se, ah: ah, al: al) }
        // Every block of a sequential or DC scan costs at least one bit (two
        // for a sequential one: a DC and an end-of-block code), and the reader
        // lets an interval end in at most a byte of padding. Checked before any
        // storage exists, so a short file cannot make the decoder allocate for
        // a frame its data could never fill. (Each component's first scan is
        // one of these: AC scans must follow the DC scan.)
        let bitsPerBlock = isProgressive ? (ss == 0 ? 1 : 0) : 2
        let blocks = count == 1 ? usedBlocks(scanComponents[0]) : mcusX * mcusY * blocksInMCU
        let available = 8 * (bytes.count - end) + 8
        guard blocks * bitsPerBlock <= available else {
            throw JPEGError.truncated("a scan of \(blocks) blocks (at least \((blocks * bitsPerBlock + 7) / 8) bytes; \(bytes.count - end) remain)")
        }
        if renderer == nil, let scale = renderScale { renderer = try JPEGRowRenderer(self, scale: scale) }
        var streamTo: JPEGRowRenderer?
        if let renderer {
            // A streamed scan's coefficients are gone; sequential files have no further scans to add to them.
            guard !renderer.streamed else { throw JPEGError.invalidSegment("a scan after the sequential scan of every component") }
            if !isProgressive && scanCount == 0 && count == components.count {
                // Every component in one sequential scan: decode an MCU row at a
                // time into one row of blocks per component and render each as it completes.
                let bandBlocks = components.map { count == 1 ? 1 : $0.verticalSampling }
                for (c, blockRows) in zip(components, bandBlocks) {
                    c.allocate(width: width, height: height, maxH: maxH, maxV: maxV, mcusX: mcusX, mcusY: mcusY,
                               dcOnly: keepsOnlyDC(c), blockRows: blockRows)
                }
                try renderer.begin(self, bandBlocks: bandBlocks, streaming: true)
                streamTo = renderer
            }
        }
        if streamTo == nil {
            // Only the components this scan codes, at their first scan.
            for c in scanComponents where c.coefficients == nil {
                c.allocate(width: width, height: height, maxH: maxH, maxV: maxV, mcusX: mcusX, mcusY: mcusY, dcOnly: keepsOnlyDC(c))
            }
        }
        var decoder = JPEGScanDecoder(
            parser: self, components: scanComponents, spectralStart: ss, spectralEnd: se,
            successiveHigh: ah, successiveLow: al, reader: JPEGBitReader(bytes: bytes, position: end),
            renderer: streamTo)
        do {
            try decoder.decode()
        } catch JPEGError.truncated(let what) {
            throw JPEGError.truncated("scan \(scanCount + 1) (\(what))")
        }
        return decoder.reader.position
    }

    /// The data ended after a scan, before EOI. A sequential file whose every
    /// component has had its scan is whole (its last scan, run to the end of
    /// the data, was checked bit for bit) and decodes, as libjpeg-turbo
    /// decodes it with a warning. A progressive file is refused: at 1/8 scale
    /// its AC scans are skipped unread, so whether its last scan is whole
    /// could not be known at every scale, and the same file must not decode
    /// at one scale and fail at another.
    private func checkCompleteWithoutEOI() throws {
        if isProgressive {
            let complete = coefficientBits.allSatisfy { $0.allSatisfy { $0 == 0 } }
            throw JPEGError.truncated(complete
                ? "a progressive file, before its EOI marker (after scan \(scanCount))"
                : "a progressive file, before the last scan (after scan \(scanCount))")
        }
        if let missing = components.first(where: { $0.coefficients == nil }) {
            throw JPEGError.truncated("a sequential file, before the scan of component \(missing.id) (after scan \(scanCount))")
        }
    }
}
