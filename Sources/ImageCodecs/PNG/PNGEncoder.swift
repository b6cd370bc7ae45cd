import Foundation
import Raster

/// Writes bitmaps as PNG files: 8-bit gray, gray + alpha, RGB or RGBA, one
/// filter chosen per row, deflate at a chosen level, CRC on every chunk.
///
/// Images of 256 KiB or more of filtered rows are filtered and compressed in
/// parts of whole rows on every core, as pigz compresses (each part's deflate
/// data primed with the 32 KiB before it). How the rows are split depends on
/// the image's size alone, so the same bitmap gives the same file on any machine.
public struct PNGEncoder: ImageEncoding {
    /// The colour type to write; nil picks the smallest that keeps every pixel exact.
    public var colorType: PNGColorType?
    /// Deflate level 0–9.
    public var level: Int

    /// Level 4: short hash chains with lazy matching. Images are either noisy
    /// (photos: long chains buy little) or full of long runs (maps, UI: lazy
    /// matching finds them). Measured on the benchmark photo and map and the
    /// zoom-5 Europe map: the maps take 0.65–0.75× level 6's time (the photo
    /// 1.1×), all three are within 0.1 % of level 6's size or smaller, and the
    /// benchmark photo and map are smaller than Pillow's default level makes them.
    public static let defaultLevel = 4

    /// Whether the parts of a large image run on every core (false: one after
    /// another on the caller's thread). The bytes are the same either way;
    /// tests set it to show that.
    var concurrentParts = true

    /// Always `.png`.
    public var format: ImageFormat { .png }

    /// An encoder writing `colorType` (nil: the smallest type that holds the bitmap exactly) at deflate `level`.
    public init(colorType: PNGColorType? = nil, level: Int = PNGEncoder.defaultLevel) {
        self.colorType = colorType
        self.level = level
    }

    /// The PNG file for `bitmap`. Throws `ImageCodecError` (detail a `PNGError`) for an empty bitmap or one too large for PNG.
    public func encode(_ bitmap: Bitmap) throws -> Data {
        try encode(bitmap, checkCancellation: {})
    }

    /// Encodes `bitmap`, calling `checkCancellation` on the caller's thread
    /// after packing, every 256 filtered rows and before each deflate block;
    /// whatever it throws ends the encode. Images of 256 KiB or more of
    /// filtered rows are filtered and compressed in parts of whole rows on
    /// every core (eight parts, or parts of 128 KiB to 4 MiB: see
    /// `DeflateEncoder.partBounds`), and checked instead before each round of
    /// parts and at the end: a round is about 8 MiB of rows (or one part per
    /// core if more), tens of milliseconds. The split depends on the image
    /// alone, so the file is the same on any machine.
    public func encode(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> Data {
        guard !bitmap.isEmpty else { throw ImageCodecError(PNGError.emptyImage(width: bitmap.width, height: bitmap.height)) }
        guard bitmap.width <= Int(Int32.max), bitmap.height <= Int(Int32.max) else {
            throw ImageCodecError(PNGError.dimensionsTooLarge(width: bitmap.width, height: bitmap.height))
        }
        return try bitmap.pixels.withUnsafeBufferPointer { pixels in
            let type = colorType ?? PNGColorType.smallest(for: pixels)
            let channels = type.channels
            let rowBytes = bitmap.width * channels
            let rowStride = rowBytes + 1, width = bitmap.width, height = bitmap.height
            try checkCancellation()
            // Rows are packed into the chosen type one at a time as the filter asks for them.
            let rgba = pixels.baseAddress!
            let compressed: [UInt8]
            let encoder = DeflateEncoder(level: level)
            let rows = Self.partRows(rowBytes: rowBytes, height: height)
            if rows < height && level > 0 {
                // Each part filters its rows into memory of its own, after the rows
                // of its dictionary (the 32 KiB of filtered rows before it), which
                // the part before filters too: a few rows twice, no full-image buffer.
                let bounds = stride(from: 0, to: height, by: rows).map { $0 * rowStride } + [height * rowStride]
                let dictionaryRows = (LZ77Matcher.windowSize + rowStride - 1) / rowStride
                // Safe: the pixels outlive the encode and are only read.
                nonisolated(unsafe) let source = rgba
                compressed = try encoder.zlibCompress(parts: bounds, concurrently: concurrentParts, withPart: { part, body in
                    let first = max(0, part * rows - dictionaryRows), end = min(height, (part + 1) * rows)
                    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: (end - first) * rowStride)
                    defer { buffer.deallocate() }
                    PNGFilter.filterRows(first..<end, rowBytes: rowBytes, bpp: channels, into: buffer,
                                         packRow: { y, row in Self.pack(source + y * width * 4, count: width, as: type, into: row) },
                                         checkCancellation: {})
                    let dictionary = min(part * rows * rowStride, LZ77Matcher.windowSize)
                    body(buffer + (part * rows - first) * rowStride - dictionary)
                }, checkCancellation: checkCancellation)
            } else {
                let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: rowStride * height)
                defer { filtered.deallocate() }
                try PNGFilter.filterRows(0..<height, rowBytes: rowBytes, bpp: channels, into: filtered,
                                         packRow: { y, row in Self.pack(rgba + y * width * 4, count: width, as: type, into: row) },
                                         checkCancellation: checkCancellation)
                compressed = try encoder.zlibCompress(UnsafeBufferPointer(start: filtered, count: rowStride * height),
                                                      checkCancellation: checkCancellation)
            }

            var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            file.reserveCapacity(compressed.count + 128)
            var header: [UInt8] = []
            Self.appendBigEndian(UInt32(bitmap.width), to: &header)
            Self.appendBigEndian(UInt32(bitmap.height), to: &header)
            header += [8, type.rawValue, 0, 0, 0]  // depth 8, deflate, adaptive filtering, not interlaced
            Self.appendChunk("IHDR", header, to: &file)
            var offset = 0
            repeat {  // IDAT chunks of at most 1 MiB, so readers never need one huge buffer
                let end = min(compressed.count, offset + (1 << 20))
                Self.appendChunk("IDAT", compressed[offset..<end], to: &file)
                offset = end
            } while offset < compressed.count
            Self.appendChunk("IEND", [], to: &file)
            return Data(file)
        }
    }

    /// Rows per part for an image of `height` rows of `rowBytes` bytes: about
    /// as many parts as `DeflateEncoder.partBounds` makes of the filtered
    /// bytes, of whole rows, all but the last the same height; `height` (one
    /// part) when that is fewer than two parts.
    static func partRows(rowBytes: Int, height: Int) -> Int {
        let parts = DeflateEncoder.partBounds(count: (rowBytes + 1) * height).count - 1
        guard parts > 1 else { return height }
        return (height + parts - 1) / parts
    }

    /// Packs `count` RGBA pixels into `type`; `out` has 8 bytes of slack past them.
    @inline(__always)
    private static func pack(_ rgba: UnsafePointer<UInt8>, count: Int, as type: PNGColorType, into out: UnsafeMutablePointer<UInt8>) {
        switch type {
        case .rgba:
            out.update(from: rgba, count: count * 4)
        case .rgb:
            // Each pixel as one 4-byte store whose fourth byte the next pixel
            // overwrites (the last one's lands in the slack).
            let source = UnsafeRawPointer(rgba), destination = UnsafeMutableRawPointer(out)
            for i in 0..<count {
                destination.storeBytes(of: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self), toByteOffset: 3 * i, as: UInt32.self)
            }
        case .grayAlpha:
            for i in 0..<count {
                out[2 * i] = rgba[4 * i]; out[2 * i + 1] = rgba[4 * i + 3]
            }
        case .gray:
            for i in 0..<count { out[i] = rgba[4 * i] }
        }
    }

    private static func appendChunk<Bytes: Collection>(_ type: String, _ data: Bytes, to file: inout [UInt8]) where Bytes.Element == UInt8 {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        file += typeBytes
        file += data
        appendBigEndian(crc.value, to: &file)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
