import Raster

/// Turns DCT coefficients into RGBA one band (one MCU row) at a time.
///
/// The IDCT writes each component's band into a small ring of sample rows;
/// every output row whose samples (and the upsampling filter's neighbours)
/// are then present is upsampled and converted straight away, while the
/// samples are still in cache. A baseline scan holding every component streams
/// through it as it decodes (the scan decoder hands over each MCU row), so no
/// whole-image coefficient or sample buffer exists; progressive and
/// multi-scan files are decoded whole first and then fed through band by band.
///
/// At a reduced scale each component's inverse DCT is sized on its own
/// (`JPEGScale.componentBlock`): subsampled chroma is decoded with a larger
/// IDCT straight to the output scale where it can be, rather than reduced
/// like luma and upsampled back.
final class JPEGRowRenderer {
    /// How a component's blocks become samples at the render scale.
    private enum BlockTransform {
        /// 8×8: the AAN float IDCT on four blocks at once (`JPEGInverseDCT.transformFour`),
        /// flat blocks filled (`JPEGInverseDCT.transformFlat`).
        case full
        /// 4×4: `JPEGInverseDCT.transformHalf`.
        case half
        /// 2×2: `JPEGInverseDCT.transformQuarter`.
        case quarter
        /// 1×1: the block's mean (`JPEGInverseDCT.transformDC`), from its DC coefficient alone.
        case dc
        /// Any other `rows`×`columns` of 1, 2, 4 or 8 (4:2:2 chroma): `JPEGInverseDCT.transformReduced`.
        case reduced(rows: Int, columns: Int)
    }

    let scale: JPEGScale
    /// The output size.
    let width: Int
    let height: Int
    private let components: [JPEGComponent]
    /// Per component: its IDCT and the samples each block becomes (width, height).
    private let transforms: [BlockTransform]
    private let blockWidths: [Int]
    private let blockHeights: [Int]
    /// Per component: the upsampling still needed after the IDCT, each way.
    private let upsampling: [(horizontal: Int, vertical: Int)]
    private let model: JPEGColorConverter.Model
    private var planes: [JPEGColorConverter.Plane] = []
    /// Block rows of each component per band.
    private var bandBlocks: [Int] = []
    /// Sample rows of each component written so far.
    private var rowsWritten: [Int] = []
    /// The next output row to convert.
    private var nextRow = 0
    /// True once a scan has streamed its bands here.
    private(set) var streamed = false
    private var rgba: [UInt8]
    /// Dequantisation multipliers, `multiplierStride` floats per component:
    /// the 64 of the component's IDCT, then (full-size IDCT) the same repeated
    /// four times for `JPEGInverseDCT.transformFour`.
    private let multipliers: UnsafeMutablePointer<Float>
    /// The reduced-IDCT bases for 1, 2, 4 and 8 samples per side (`basis(_:)`),
    /// and the four-block IDCT's workspace (256 floats).
    private let bases: UnsafeMutablePointer<Float>
    private let workspace: UnsafeMutablePointer<Float>
    /// The blocks `transformRow` has gathered for `JPEGInverseDCT.transformFour`:
    /// four coefficient pointers and four sample pointers.
    private let batchInputs: UnsafeMutablePointer<UnsafePointer<Int16>>
    private let batchOutputs: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>

    /// Floats of `multipliers` per component.
    private static let multiplierStride = 64 + 256

    /// Per component: the upsampled output row, and the upsampler's column sums.
    private var rowBuffers: [UnsafeMutablePointer<UInt8>] = []
    private var columnSums: [UnsafeMutablePointer<Int16>] = []

    /// Sizes the output for `parser`'s frame (read, not yet decoded) at `scale`.
    init(_ parser: JPEGParser, scale: JPEGScale) throws {
        self.scale = scale
        width = scale.scaled(parser.width)
        height = scale.scaled(parser.height)
        components = parser.components
        var transforms: [BlockTransform] = [], blockWidths: [Int] = [], blockHeights: [Int] = []
        var upsampling: [(horizontal: Int, vertical: Int)] = []
        for c in parser.components {
            let (columns, fx) = scale.componentBlock(subsampling: parser.maxH / c.horizontalSampling)
            let (rows, fy) = scale.componentBlock(subsampling: parser.maxV / c.verticalSampling)
            switch (rows, columns) {
            case (8, 8): transforms.append(.full)
            case (4, 4): transforms.append(.half)
            case (2, 2): transforms.append(.quarter)
            case (1, 1): transforms.append(.dc)
            default: transforms.append(.reduced(rows: rows, columns: columns))
            }
            blockWidths.append(columns)
            blockHeights.append(rows)
            upsampling.append((fx, fy))
        }
        self.transforms = transforms
        self.blockWidths = blockWidths
        self.blockHeights = blockHeights
        self.upsampling = upsampling
        model = try JPEGRowRenderer.colorModel(parser)
        let count = width * height * 4
        // Every byte is written before the bitmap is returned: `finish` converts
        // every row, and a failed decode throws the array away.
        rgba = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        multipliers = .allocate(capacity: JPEGRowRenderer.multiplierStride * components.count)
        bases = .allocate(capacity: 4 * 64)
        workspace = .allocate(capacity: 256)
        batchInputs = .allocate(capacity: 4)
        batchOutputs = .allocate(capacity: 4)
        for size in [1, 2, 4, 8] { JPEGInverseDCT.fillReducedBasis(size: size, into: basis(size)) }
    }

    /// The reduced-IDCT basis for `size` (1, 2, 4 or 8) samples per side: `size` × 8 floats.
    private func basis(_ size: Int) -> UnsafeMutablePointer<Float> {
        bases + size.trailingZeroBitCount * 64
    }

    deinit {
        for plane in planes { plane.samples.deallocate() }
        for buffer in rowBuffers { buffer.deallocate() }
        for buffer in columnSums { buffer.deallocate() }
        multipliers.deallocate()
        bases.deallocate()
        workspace.deallocate()
        batchInputs.deallocate()
        batchOutputs.deallocate()
    }

    /// Prepares to receive bands of `bandBlocks[i]` block rows for component i,
    /// using the quantisation tables `parser` holds now.
    func begin(_ parser: JPEGParser, bandBlocks: [Int], streaming: Bool) throws {
        self.bandBlocks = bandBlocks
        streamed = streaming
        rowsWritten = Array(repeating: 0, count: components.count)
        for (index, c) in components.enumerated() {
            guard let quant = parser.quantizationTables[c.quantizationTableIndex] else {
                throw JPEGError.invalidSegment("component \(c.id) uses an undefined quantisation table")
            }
            let table = multipliers + JPEGRowRenderer.multiplierStride * index
            quant.withUnsafeBufferPointer { q in
                switch transforms[index] {
                case .full:
                    JPEGInverseDCT.fillMultipliers(q.baseAddress!, into: table)
                    JPEGInverseDCT.fillWideMultipliers(table, into: table + 64)
                case .half: JPEGInverseDCT.fillHalfWeights(q.baseAddress!, into: table)
                case .quarter: JPEGInverseDCT.fillQuarterWeights(q.baseAddress!, basis(2), into: table)
                case .dc, .reduced: for i in 0..<64 { table[i] = Float(q[i]) }
                }
            }
            let (fx, fy) = upsampling[index]
            let stride = c.blocksPerLine * blockWidths[index]
            let bandRows = bandBlocks[index] * blockHeights[index]
            // Room for the band being written plus the rows before it that
            // pending output rows still read (the filter looks one row back,
            // and output lags input by at most a couple of rows). A whole
            // number of bands, so a block's rows never wrap.
            let ringRows = bandRows * max(2, (bandRows + 4 + bandRows - 1) / bandRows)
            let plane = JPEGColorConverter.Plane(
                samples: .allocate(capacity: stride * ringRows), stride: stride, ringRows: ringRows,
                width: min(stride, max(1, (width + fx - 1) / fx)),
                height: min(c.blocksPerColumn * blockHeights[index], max(1, (height + fy - 1) / fy)),
                horizontalFactor: fx, verticalFactor: fy)
            planes.append(plane)
            rowBuffers.append(.allocate(capacity: width))
            columnSums.append(.allocate(capacity: plane.width + 2))
        }
    }

    /// Runs the IDCT over band `band` of every component, reading the band's
    /// coefficients at `c.coefficients + offset(c)`, then converts the output
    /// rows that became complete. A streamed band's coefficients are zeroed
    /// afterwards for the next one.
    func consumeBand(_ band: Int) {
        for (index, c) in components.enumerated() {
            guard let coefficients = c.coefficients else { continue }
            let blocks = bandBlocks[index]
            let perBlock = c.coefficientsPerBlock
            let base = streamed ? coefficients : coefficients + band * blocks * c.blocksPerLine * perBlock
            let plane = planes[index]
            let table = multipliers + JPEGRowRenderer.multiplierStride * index
            let firstBlockRow = band * blocks
            let blockHeight = blockHeights[index]
            for i in 0..<max(0, min(blocks, c.blocksPerColumn - firstBlockRow)) {
                let out = plane.row((firstBlockRow + i) * blockHeight)
                let input = base + i * c.blocksPerLine * perBlock
                let flat = streamed ? c.flatBlocks.map { $0 + i * c.blocksPerLine } : nil
                transformRow(transforms[index], input, perBlock: perBlock, count: c.blocksPerLine, flat: flat, table, out,
                             plane.stride)
            }
            if streamed { base.update(repeating: 0, count: blocks * c.blocksPerLine * perBlock) }
            rowsWritten[index] = min((firstBlockRow + blocks) * blockHeight, plane.height)
        }
        convertReadyRows()
    }

    /// One row of `count` blocks into samples. `flat`, when the scan decoder
    /// noted them, says which blocks have no AC coefficient.
    @inline(__always)
    private func transformRow(_ transform: BlockTransform, _ input: UnsafeMutablePointer<Int16>, perBlock: Int, count: Int,
                              flat: UnsafeMutablePointer<Bool>?, _ table: UnsafeMutablePointer<Float>,
                              _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        switch transform {
        case .full:
            // Flat blocks are filled on the spot; the others go four at a time
            // through `transformFour`, the last few padded with repeats.
            var batched = 0
            for bx in 0..<count {
                let block = input + bx * perBlock
                if flat?[bx] ?? JPEGInverseDCT.isDCOnly(block) {
                    JPEGInverseDCT.transformFlat(block, table, out + bx * 8, stride)
                    continue
                }
                batchInputs[batched] = UnsafePointer(block)
                batchOutputs[batched] = out + bx * 8
                batched += 1
                if batched == 4 {
                    JPEGInverseDCT.transformFour(batchInputs, table + 64, batchOutputs, stride, workspace)
                    batched = 0
                }
            }
            if batched > 0 {
                for i in batched..<4 {
                    batchInputs[i] = batchInputs[batched - 1]
                    batchOutputs[i] = batchOutputs[batched - 1]
                }
                JPEGInverseDCT.transformFour(batchInputs, table + 64, batchOutputs, stride, workspace)
            }
        case .half:
            for bx in 0..<count {
                JPEGInverseDCT.transformHalf(input + bx * perBlock, flat: flat?[bx], table, out + bx * 4, stride)
            }
        case .quarter:
            for bx in 0..<count {
                JPEGInverseDCT.transformQuarter(input + bx * perBlock, flat: flat?[bx], table, out + bx * 2, stride)
            }
        case .reduced(let rows, let columns):
            let verticalBasis = basis(rows), horizontalBasis = basis(columns)
            for bx in 0..<count {
                JPEGInverseDCT.transformReduced(input + bx * perBlock, flat: flat?[bx], table, verticalBasis, rows: rows,
                                                horizontalBasis, columns: columns, out + bx * columns, stride)
            }
        case .dc:
            for bx in 0..<count {
                out[bx] = JPEGInverseDCT.transformDC(input + bx * perBlock, table)
            }
        }
    }

    /// Feeds a fully decoded (progressive or multi-scan) image through band by band.
    func renderDecodedImage(_ parser: JPEGParser) throws {
        for c in components where c.coefficients == nil {
            throw JPEGError.invalidSegment("component \(c.id) has no scan data")
        }
        try begin(parser, bandBlocks: components.map(\.verticalSampling), streaming: false)
        for band in 0..<parser.mcusY { consumeBand(band) }
    }

    /// Converts the rows still pending and returns the bitmap.
    func finish() throws -> Bitmap {
        guard !planes.isEmpty else { throw JPEGError.invalidSegment("no scan data") }
        for index in rowsWritten.indices { rowsWritten[index] = Int.max }
        convertReadyRows()
        let pixels = rgba
        rgba = []
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    /// Converts output rows, in order, while every component holds the sample
    /// rows they read.
    private func convertReadyRows() {
        let width = self.width, height = self.height, model = self.model
        // Local copies: the row loop then touches no stored property (each
        // access to one costs an exclusivity check, and to an array a retain).
        let planes = self.planes, rowsWritten = self.rowsWritten
        let rowBuffers = self.rowBuffers, columnSums = self.columnSums
        // The rows `JPEGColorConverter.convert` reads, one per component.
        var rows = rowBuffers
        var y = nextRow
        defer { nextRow = y }
        rgba.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            rows.withUnsafeMutableBufferPointer { rows in
                while y < height {
                    for index in planes.indices where planes[index].lastRowRead(forOutputRow: y) >= rowsWritten[index] {
                        return
                    }
                    for (index, plane) in planes.enumerated() {
                        if plane.horizontalFactor == 1 && plane.verticalFactor == 1 {
                            rows[index] = plane.row(min(y, plane.height - 1))
                        } else {
                            JPEGColorConverter.upsampleRow(plane, y: y, width: width, into: rowBuffers[index],
                                                           columnSums: columnSums[index] + 1)
                            rows[index] = rowBuffers[index]
                        }
                    }
                    JPEGColorConverter.convert(model, UnsafeBufferPointer(rows), count: width, into: out + y * width * 4)
                    y += 1
                }
            }
        }
    }

    /// Chooses the colour model from the component count, the Adobe transform flag and component ids.
    private static func colorModel(_ parser: JPEGParser) throws -> JPEGColorConverter.Model {
        switch parser.components.count {
        case 1: return .gray
        case 3:
            if let transform = parser.adobeTransform { return transform == 0 ? .rgb : .ycbcr }
            let ids = parser.components.map(\.id)
            if !parser.sawJFIF && ids == [0x52, 0x47, 0x42] { return .rgb }
            return .ycbcr
        case 4:
            return parser.adobeTransform == 2 ? .ycck : .cmyk
        default:
            throw JPEGError.unsupported("\(parser.components.count) colour components")
        }
    }
}
