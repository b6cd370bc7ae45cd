import Foundation
import Raster

/// Writes baseline or progressive JPEG files: IJG-scaled standard quantisation tables,
/// a vectorised 16-bit forward DCT, 4:2:0, 4:2:2 or 4:4:4 chroma, optional grayscale,
/// optional optimised Huffman tables and restart intervals, and an optional ICC profile.
///
/// Alpha is ignored (JPEG has none): pixels are encoded as if opaque.
/// Grayscale output is only produced when `grayscale` is set; a gray bitmap
/// encoded in colour stays gray (its chroma is flat and costs little).
public struct JPEGEncoder: ImageEncoding {
    /// Chroma resolution of colour output.
    public enum Subsampling: Sendable {
        /// Chroma at half resolution both ways (smaller files; the common choice).
        case yuv420
        /// Chroma at half resolution across, full down (what many cameras write).
        case yuv422
        /// Chroma at full resolution.
        case yuv444
    }

    /// The most ICC profile bytes one APP2 segment carries: 65,535 minus the
    /// length field (2) and the "ICC_PROFILE\0", sequence and count header (14).
    static let iccChunkSize = 65_519

    /// 1–100, mapped to table scale factors as the IJG library does; any
    /// value set is clamped into that range (0 would divide by zero).
    public var quality: Int {
        didSet { quality = min(max(quality, 1), 100) }
    }
    /// How much chroma is kept: 4:2:0 (the default) or full.
    public var subsampling: Subsampling
    /// Two passes: gather symbol statistics, then write tables made for this image.
    public var optimizeHuffman: Bool
    /// MCUs between restart markers; 0 writes none. Clamped to 0...65535 (DRI holds 16 bits).
    public var restartInterval: Int {
        didSet { restartInterval = min(max(restartInterval, 0), 65535) }
    }
    /// Writes one luminance component only.
    public var grayscale: Bool
    /// An ICC colour profile to embed (APP2 `ICC_PROFILE` segments, split
    /// every 65,519 bytes); nil or empty embeds none. At most 255 segments
    /// (16,707,345 bytes) fit; a larger profile makes `encode` throw.
    public var iccProfile: Data?
    /// Writes a progressive file (SOF2) in libjpeg's simple progression (the
    /// scans of `jpeg_simple_progression`: DC, then AC bands, with successive
    /// approximation), each scan with Huffman tables optimised for it, so
    /// `optimizeHuffman` is implied. The pixels decoded are those of the
    /// baseline file at the same settings; the file is usually smaller.
    public var progressive: Bool

    /// Always `.jpeg`.
    public var format: ImageFormat { .jpeg }

    /// The quality an encoder gets when none is given.
    public static let defaultQuality = 90

    /// An encoder; `quality` is clamped to 1...100 and `restartInterval` to 0...65535.
    public init(quality: Int = JPEGEncoder.defaultQuality, subsampling: Subsampling = .yuv420, optimizeHuffman: Bool = false,
                restartInterval: Int = 0, grayscale: Bool = false, iccProfile: Data? = nil, progressive: Bool = false) {
        self.quality = min(max(quality, 1), 100)
        self.subsampling = subsampling
        self.optimizeHuffman = optimizeHuffman
        self.restartInterval = min(max(restartInterval, 0), 65535)
        self.grayscale = grayscale
        self.iccProfile = iccProfile
        self.progressive = progressive
    }

    /// Luma blocks per MCU across and down: the luma sampling factors.
    private var samplingFactors: (horizontal: Int, vertical: Int) {
        if grayscale { return (1, 1) }
        switch subsampling {
        case .yuv420: return (2, 2)
        case .yuv422: return (2, 1)
        case .yuv444: return (1, 1)
        }
    }

    /// The IJG quality scaling of a standard table (zigzag order), each entry 1...255.
    static func scaledTable(_ base: [Int], quality: Int) -> [Int] {
        let scale = quality < 50 ? 5000 / quality : 200 - quality * 2
        return base.map { min(max(($0 * scale + 50) / 100, 1), 255) }
    }

    /// The JPEG file for `bitmap` (alpha is dropped). Throws `ImageCodecError` (detail `JPEGError.cannotEncode`)
    /// for an empty or oversized bitmap, or an ICC profile too large for JPEG.
    public func encode(_ bitmap: Bitmap) throws -> Data {
        try encode(bitmap, checkCancellation: {})
    }

    /// Encodes `bitmap`, calling `checkCancellation` after each row of MCUs;
    /// whatever it throws ends the encode.
    public func encode(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> Data {
        guard bitmap.width > 0, bitmap.height > 0 else { throw ImageCodecError(JPEGError.cannotEncode("the bitmap is empty")) }
        guard bitmap.width <= 65535, bitmap.height <= 65535 else {
            throw ImageCodecError(JPEGError.cannotEncode("\(bitmap.width)×\(bitmap.height) exceeds JPEG's 65535-pixel side"))
        }
        if let iccProfile, iccProfile.count > 255 * JPEGEncoder.iccChunkSize {
            throw ImageCodecError(JPEGError.cannotEncode("an ICC profile of \(iccProfile.count) bytes exceeds the 255 APP2 segments of \(JPEGEncoder.iccChunkSize) bytes JPEG allows"))
        }
        let (fh, fv) = samplingFactors
        let mcusX = (bitmap.width + 8 * fh - 1) / (8 * fh), mcusY = (bitmap.height + 8 * fv - 1) / (8 * fv)
        let luma = JPEGEncoder.scaledTable(JPEGStandardTables.luminanceQuantization, quality: quality)
        let chroma = JPEGEncoder.scaledTable(JPEGStandardTables.chrominanceQuantization, quality: quality)
        // The component of each block of an MCU: fh × fv luma blocks, then Cb and Cr.
        let layout = [Int](repeating: 0, count: fh * fv) + (grayscale ? [] : [1, 2])
        let rowCoefficients = mcusX * layout.count * 64
        let transformer = JPEGMCURowTransformer(width: bitmap.width, height: bitmap.height, mcusX: mcusX,
                                                horizontalFactor: fh, verticalFactor: fv, grayscale: grayscale, layout: layout,
                                                luma: luma, chroma: chroma)
        var writer = JPEGBitWriter(reserving: bitmap.width * bitmap.height / 3 + 4096)
        try bitmap.pixels.withUnsafeBufferPointer { pixels in
            let source = pixels.baseAddress!
            if progressive {
                // Every scan visits the whole image: keep all blocks, then write the scans.
                let all = UnsafeMutablePointer<Int16>.allocate(capacity: rowCoefficients * mcusY)
                defer { all.deallocate() }
                for row in 0..<mcusY {
                    transformer.transform(mcuRow: row, of: source, into: all + row * rowCoefficients)
                    try checkCancellation()
                }
                writeFrame(bitmap, luma: luma, chroma: chroma, into: &writer)
                let scans = JPEGProgressiveEncoder(blocks: all, width: bitmap.width, height: bitmap.height, mcusX: mcusX, mcusY: mcusY,
                                                   lumaFactors: (fh, fv), layout: layout, restartInterval: restartInterval)
                try scans.write(JPEGProgressiveScan.simpleProgression(grayscale: grayscale), into: &writer,
                                checkCancellation: checkCancellation)
            } else if optimizeHuffman {
                // Two passes over stored coefficients: count symbols, then code them
                // with tables made for these counts.
                let all = UnsafeMutablePointer<Int16>.allocate(capacity: rowCoefficients * mcusY)
                defer { all.deallocate() }
                for row in 0..<mcusY {
                    transformer.transform(mcuRow: row, of: source, into: all + row * rowCoefficients)
                    try checkCancellation()
                }
                let counts = JPEGEntropyEncoder.statistics(all, mcuCount: mcusX * mcusY, layout: layout,
                                                           restartInterval: restartInterval)
                let tables = (dc: counts.dc.prefix(grayscale ? 1 : 2).map { JPEGHuffmanEncoder.optimal(frequencies: $0) },
                              ac: counts.ac.prefix(grayscale ? 1 : 2).map { JPEGHuffmanEncoder.optimal(frequencies: $0) })
                writeFrame(bitmap, luma: luma, chroma: chroma, into: &writer)
                writeBaselineScanHeader(dc: tables.dc, ac: tables.ac, into: &writer)
                var coder = JPEGEntropyEncoder(dc: tables.dc, ac: tables.ac, restartInterval: restartInterval)
                coder.encode(all, mcuCount: mcusX * mcusY, layout: layout, into: &writer)
            } else {
                // One pass: each MCU row is transformed and coded while its blocks are in cache.
                let tables = JPEGEncoder.standardTables(grayscale: grayscale)
                writeFrame(bitmap, luma: luma, chroma: chroma, into: &writer)
                writeBaselineScanHeader(dc: tables.dc, ac: tables.ac, into: &writer)
                var coder = JPEGEntropyEncoder(dc: tables.dc, ac: tables.ac, restartInterval: restartInterval)
                let blocks = UnsafeMutablePointer<Int16>.allocate(capacity: rowCoefficients)
                defer { blocks.deallocate() }
                for row in 0..<mcusY {
                    transformer.transform(mcuRow: row, of: source, into: blocks)
                    coder.encode(blocks, mcuCount: mcusX, layout: layout, into: &writer)
                    try checkCancellation()
                }
            }
        }
        writer.flush()
        writer.append([0xFF, 0xD9])
        return writer.data
    }

    /// The Annex K tables the IJG library uses by default: luma, then (in colour) chroma.
    private static func standardTables(grayscale: Bool) -> (dc: [JPEGHuffmanEncoder], ac: [JPEGHuffmanEncoder]) {
        var dc = [JPEGHuffmanEncoder(counts: JPEGStandardTables.dcLuminanceCounts, symbols: JPEGStandardTables.dcLuminanceSymbols)]
        var ac = [JPEGHuffmanEncoder(counts: JPEGStandardTables.acLuminanceCounts, symbols: JPEGStandardTables.acLuminanceSymbols)]
        if !grayscale {
            dc.append(JPEGHuffmanEncoder(counts: JPEGStandardTables.dcChrominanceCounts, symbols: JPEGStandardTables.dcChrominanceSymbols))
            ac.append(JPEGHuffmanEncoder(counts: JPEGStandardTables.acChrominanceCounts, symbols: JPEGStandardTables.acChrominanceSymbols))
        }
        return (dc, ac)
    }

    /// SOI, JFIF, ICC profile (APP2), DQT, SOF0 or SOF2 and DRI: everything before the first scan's tables.
    private func writeFrame(_ bitmap: Bitmap, luma: [Int], chroma: [Int], into writer: inout JPEGBitWriter) {
        let componentCount = grayscale ? 1 : 3
        let (fh, fv) = samplingFactors
        writer.append([0xFF, 0xD8])
        writer.append([0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        if let iccProfile, !iccProfile.isEmpty { writeICCProfile([UInt8](iccProfile), into: &writer) }
        writer.append([0xFF, 0xDB, 0, UInt8(2 + 65 * (grayscale ? 1 : 2)), 0] + luma.map { UInt8($0) })
        if !grayscale { writer.append([1] + chroma.map { UInt8($0) }) }
        var sof: [UInt8] = [0xFF, progressive ? 0xC2 : 0xC0, 0, UInt8(8 + 3 * componentCount), 8,
                            UInt8(bitmap.height >> 8), UInt8(bitmap.height & 255),
                            UInt8(bitmap.width >> 8), UInt8(bitmap.width & 255), UInt8(componentCount)]
        sof += [1, UInt8(fh << 4 | fv), 0]
        if !grayscale { sof += [2, 0x11, 1, 3, 0x11, 1] }
        writer.append(sof)
        if restartInterval > 0 {
            writer.append([0xFF, 0xDD, 0, 4, UInt8(restartInterval >> 8), UInt8(restartInterval & 255)])
        }
    }

    /// DHT and SOS of the one scan of a baseline file.
    private func writeBaselineScanHeader(dc: [JPEGHuffmanEncoder], ac: [JPEGHuffmanEncoder], into writer: inout JPEGBitWriter) {
        let componentCount = grayscale ? 1 : 3
        for (index, table) in dc.enumerated() { writer.append(JPEGEncoder.dht(table, tableClass: 0, index: index)) }
        for (index, table) in ac.enumerated() { writer.append(JPEGEncoder.dht(table, tableClass: 1, index: index)) }
        var sos: [UInt8] = [0xFF, 0xDA, 0, UInt8(6 + 2 * componentCount), UInt8(componentCount), 1, 0x00]
        if !grayscale { sos += [2, 0x11, 3, 0x11] }
        sos += [0, 63, 0]
        writer.append(sos)
    }

    /// The profile in APP2 segments, each "ICC_PROFILE\0", its sequence number
    /// (from 1), the segment count, and up to `iccChunkSize` bytes (ICC.1 B.4).
    private func writeICCProfile(_ profile: [UInt8], into writer: inout JPEGBitWriter) {
        let count = (profile.count + JPEGEncoder.iccChunkSize - 1) / JPEGEncoder.iccChunkSize
        for index in 0..<count {
            let chunk = profile[(index * JPEGEncoder.iccChunkSize)..<min(profile.count, (index + 1) * JPEGEncoder.iccChunkSize)]
            let length = 2 + 14 + chunk.count
            writer.append([0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 255)] + Array("ICC_PROFILE".utf8)
                          + [0, UInt8(index + 1), UInt8(count)] + Array(chunk))
        }
    }

    /// A DHT segment for one table.
    static func dht(_ table: JPEGHuffmanEncoder, tableClass: Int, index: Int) -> [UInt8] {
        let length = 2 + 1 + 16 + table.symbols.count
        return [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 255), UInt8(tableClass << 4 | index)]
            + table.counts.map { UInt8($0) } + table.symbols
    }
}
