import Foundation
import Raster
@testable import ImageCodecs

/// Helpers shared by the VP8 tests: the few lines of RIFF walking that find
/// a WebP file's `VP8 ` chunk, and `dwebp`'s output formats rebuilt from a
/// decoded picture so their MD5 can be compared with libwebp's checksums.
enum VP8TestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/webp-vp8")

    /// The payload of the first `VP8 ` chunk of a WebP file, or nil.
    static func vp8Chunk(_ file: [UInt8]) -> [UInt8]? {
        guard file.count >= 12, file[0..<4].elementsEqual("RIFF".utf8), file[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        var position = 12
        while position + 8 <= file.count {
            let size = Int(file[position + 4]) | Int(file[position + 5]) << 8
                | Int(file[position + 6]) << 16 | Int(file[position + 7]) << 24
            let body = position + 8
            if file[position..<position + 4].elementsEqual("VP8 ".utf8) {
                return Array(file[body..<min(body + size, file.count)])
            }
            position = body + size + (size & 1)
        }
        return nil
    }

    /// Decodes a `VP8 ` chunk with the production decoder and a generous limit.
    static func decode(_ chunk: [UInt8], maximumPixelCount: Int = 1 << 26) throws -> VP8Picture {
        try chunk.withUnsafeBytes { try VP8Decoder(maximumPixelCount: maximumPixelCount).decode($0, checkCancellation: {}) }
    }

    /// `dwebp -pgm`: "IMC4" layout, the luma rows (padded to an even width
    /// with a zero), then each chroma row as Cb then Cr side by side.
    static func pgm(_ picture: VP8Picture) -> [UInt8] {
        let paddedWidth = (picture.width + 1) & ~1
        var out = [UInt8]("P5\n\(paddedWidth) \(picture.height + picture.chromaHeight)\n255\n".utf8)
        for y in 0..<picture.height {
            out += picture.luma[(y * picture.lumaStride)..<(y * picture.lumaStride + picture.width)]
            if picture.width & 1 == 1 { out.append(0) }
        }
        for y in 0..<picture.chromaHeight {
            let row = y * picture.chromaStride
            out += picture.cb[row..<(row + picture.chromaWidth)]
            out += picture.cr[row..<(row + picture.chromaWidth)]
        }
        return out
    }

    /// `dwebp -ppm`: RGB rows after a P6 header.
    static func ppm(_ bitmap: Bitmap) -> [UInt8] {
        var out = [UInt8]("P6\n\(bitmap.width) \(bitmap.height)\n255\n".utf8)
        out.reserveCapacity(out.count + bitmap.width * bitmap.height * 3)
        for i in 0..<(bitmap.width * bitmap.height) {
            out += bitmap.pixels[(i * 4)..<(i * 4 + 3)]
        }
        return out
    }

    /// "name.webp.pgm" → MD5, from a `libwebp_tests.md5`-style file.
    static func checksums(_ url: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { result[String(fields[1])] = String(fields[0]) }
        }
        return result
    }

    /// Decodes `file` and returns the MD5s of its `-pgm` and `-ppm` renderings.
    static func checksums(ofFile url: URL) throws -> (pgm: String, ppm: String) {
        let file = [UInt8](try Data(contentsOf: url))
        guard let chunk = vp8Chunk(file) else { throw VP8Error.corrupt("\(url.lastPathComponent) has no VP8 chunk") }
        let picture = try decode(chunk)
        return (MD5.hex(pgm(picture)), MD5.hex(ppm(try picture.rgbaBitmap())))
    }
}
