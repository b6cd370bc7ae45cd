import Foundation
import Raster

/// Reads PNG files into RGBA bitmaps: every colour type and bit depth (1–16;
/// 16-bit samples keep their high byte), palettes with `tRNS`, colour-key
/// transparency (compared at full precision), Adam7 interlacing. Every chunk's
/// CRC is checked; unknown ancillary chunks are skipped, unknown critical
/// ones refused; the pixel count is checked before anything is allocated.
///
/// The orientation comes from an `eXIf` chunk (read by the same EXIF reader as
/// a JPEG's APP1). Only an `eXIf` before the image data counts, so reading
/// the header alone gives the same orientation as decoding; a malformed one
/// is ignored, as in a JPEG. Every method throws `ImageCodecError` (its
/// `detail` the `PNGError`); `ImageDecoder` applies the orientation.
public struct PNGDecoder: ImageDecoding {
    /// The largest width × height this decoder accepts.
    public var maximumPixelCount: Int

    /// A decoder that refuses images of more than `maximumPixelCount` pixels before allocating them.
    public init(maximumPixelCount: Int = defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The header's facts (size, alpha, orientation) without decoding pixels:
    /// the chunks before the image data are read, the image data is not.
    public func readInfo(_ data: Data) throws -> ImageInfo {
        try ImageCodecError.converting {
            try data.withUnsafeBytes { raw in
                var chunks = try PNGChunks(raw.bindMemory(to: UInt8.self))
                guard let first = try chunks.next(), first.type == "IHDR" else { throw PNGError.invalid("the first chunk is not IHDR") }
                let header = try PNGHeader(first.data)
                try checkSize(header)
                var transparent = header.colorType == 4 || header.colorType == 6
                var orientation: ImageOrientation?
                while let chunk = try chunks.next(), chunk.type != "IDAT", chunk.type != "IEND" {
                    if chunk.type == "tRNS" { transparent = true }
                    if chunk.type == "eXIf", orientation == nil { orientation = ExifReader.orientation(inPNGChunk: chunk.data) ?? .up }
                }
                return ImageInfo(format: .png, width: header.width, height: header.height, orientation: orientation ?? .up,
                                 hasAlpha: transparent)
            }
        }
    }

    /// Refuses a header over the limits before anything is allocated, in
    /// `readInfo` as in `decode`; returns width × height. The decoder holds the
    /// inflated samples and the bitmap at once, so samples may take no more
    /// than the 4 bytes per pixel the bitmap does: 16-bit RGB(A) images are
    /// held to 2/3 (1/2) of the pixel limit.
    @discardableResult
    private func checkSize(_ header: PNGHeader) throws -> Int {
        let limit = min(maximumPixelCount, Bitmap.maximumPixelCount)
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixels <= limit else {
            throw PNGError.tooManyPixels(width: header.width, height: header.height, limit: limit)
        }
        let sampleBytes = pixels * header.bitsPerPixel / 8
        guard sampleBytes <= 4 * limit else {
            throw PNGError.tooManySampleBytes(width: header.width, height: header.height, bytes: sampleBytes, limit: 4 * limit)
        }
        return pixels
    }

    /// Decodes a PNG file into a straight-alpha RGBA bitmap, as stored (the
    /// `eXIf` orientation is not applied). Throws `ImageCodecError` naming what
    /// is wrong (signature, chunk, CRC, truncated data, pixel limit).
    public func decode(_ data: Data) throws -> Bitmap {
        try decodeImage(data).bitmap
    }

    /// Decodes a whole PNG file held in memory.
    public func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Bitmap {
        try ImageCodecError.converting { try decodeStored(bytes).bitmap }
    }

    /// The stored pixels and the header's facts, with the orientation of the
    /// file's `eXIf` chunk (`.up` without one); `ImageDecoder` applies it.
    func decodeImage(_ data: Data) throws -> (bitmap: Bitmap, info: ImageInfo) {
        try ImageCodecError.converting { try data.withUnsafeBytes { raw in try decodeStored(raw.bindMemory(to: UInt8.self)) } }
    }

    /// `decodeImage`, throwing `PNGError`.
    private func decodeStored(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (bitmap: Bitmap, info: ImageInfo) {
        var chunks = try PNGChunks(bytes)
        guard let first = try chunks.next(), first.type == "IHDR" else { throw PNGError.invalid("the first chunk is not IHDR") }
        let header = try PNGHeader(first.data)
        let pixels = try checkSize(header)

        var palette: [RGBA] = []
        var transparency: [UInt8]?
        var imageData: [UnsafeBufferPointer<UInt8>] = []
        var sawImageData = false, imageDataEnded = false, sawEnd = false
        var orientation: ImageOrientation?
        while let chunk = try chunks.next() {
            switch chunk.type {
            case "IHDR":
                throw PNGError.invalid("a second IHDR chunk")
            case "PLTE":
                guard !sawImageData else { throw PNGError.invalid("PLTE after IDAT") }
                guard header.colorType != 0 && header.colorType != 4 else { throw PNGError.invalid("PLTE in a grayscale image") }
                guard chunk.data.count % 3 == 0, (3...768).contains(chunk.data.count) else {
                    throw PNGError.invalid("PLTE is \(chunk.data.count) bytes; it must hold 1–256 RGB entries")
                }
                palette = stride(from: 0, to: chunk.data.count, by: 3).map { RGBA(chunk.data[$0], chunk.data[$0 + 1], chunk.data[$0 + 2]) }
            case "tRNS":
                guard !sawImageData else { throw PNGError.invalid("tRNS after IDAT") }
                let expected: Int? = header.colorType == 0 ? 2 : header.colorType == 2 ? 6 : nil
                switch header.colorType {
                case 0, 2:
                    guard chunk.data.count == expected else { throw PNGError.invalid("tRNS is \(chunk.data.count) bytes, expected \(expected ?? 0)") }
                case 3:
                    guard chunk.data.count <= max(palette.count, 1) else {
                        throw PNGError.invalid("tRNS has \(chunk.data.count) entries for a palette of \(palette.count)")
                    }
                default:
                    throw PNGError.invalid("tRNS in an image that already has an alpha channel")
                }
                transparency = Array(chunk.data)
            case "IDAT":
                guard !imageDataEnded else { throw PNGError.invalid("IDAT chunks are not consecutive") }
                sawImageData = true
                imageData.append(chunk.data)
            case "IEND":
                sawEnd = true
            case "eXIf":
                if !sawImageData, orientation == nil { orientation = ExifReader.orientation(inPNGChunk: chunk.data) ?? .up }
            default:
                if chunk.isCritical { throw PNGError.invalid("unknown critical chunk \(chunk.type)") }
            }
            if sawImageData && chunk.type != "IDAT" { imageDataEnded = true }
            if sawEnd { break }
        }
        guard sawImageData else { throw PNGError.invalid("no IDAT chunk: the file has no image data") }
        guard sawEnd else { throw PNGError.truncated("the file ends before its IEND chunk") }
        if header.colorType == 3 && palette.isEmpty { throw PNGError.invalid("a palette image without a PLTE chunk") }

        let expected = header.imageDataSize
        var filtered: [UInt8]
        do {
            filtered = try Self.inflate(imageData, expectedSize: expected)
        } catch let error as InflateError {
            throw PNGError.corruptImageData(error.description)
        }
        guard filtered.count == expected else {
            throw PNGError.corruptImageData("\(filtered.count) bytes of rows, expected \(expected)")
        }
        // Every pixel is written: the one pass of a plain image covers them all,
        // as do Adam7's seven together, so only an interlaced image's output
        // (whose passes a tiny image may leave empty) starts zeroed, to be sure.
        let expander = PNGPixelExpander(header: header, palette: palette, transparency: transparency)
        let output = try [UInt8](unsafeUninitializedCapacity: pixels * 4) { destination, initialized in
            if header.interlaced { destination.initialize(repeating: 0) }
            try filtered.withUnsafeMutableBufferPointer { try expander.expand($0, into: destination.baseAddress!) }
            initialized = pixels * 4
        }
        let info = ImageInfo(format: .png, width: header.width, height: header.height, orientation: orientation ?? .up,
                             hasAlpha: header.colorType == 4 || header.colorType == 6 || transparency != nil)
        return (try Bitmap(width: header.width, height: header.height, rgba: output), info)
    }

    /// Inflates the image data, read from a lone IDAT chunk where it is, or
    /// from the chunks joined into one buffer of the exact size.
    private static func inflate(_ chunks: [UnsafeBufferPointer<UInt8>], expectedSize: Int) throws -> [UInt8] {
        if chunks.count == 1 { return try Inflater.decodeZlib(chunks[0], expectedSize: expectedSize, limit: expectedSize) }
        let total = chunks.reduce(0) { $0 + $1.count }
        let joined = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            for chunk in chunks where chunk.count > 0 {
                (buffer.baseAddress! + initialized).initialize(from: chunk.baseAddress!, count: chunk.count)
                initialized += chunk.count
            }
        }
        return try joined.withUnsafeBufferPointer { try Inflater.decodeZlib($0, expectedSize: expectedSize, limit: expectedSize) }
    }
}
