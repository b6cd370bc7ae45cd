import Foundation

/// Assembles a WebP file: the RIFF header, then each chunk (tag, 32-bit
/// little-endian size, payload padded to an even length), as both encoders write.
enum WebPFileWriter {
    /// A RIFF `WEBP` file of `chunks` (tags as `WebPContainer` spells them), in order.
    static func file(_ chunks: [(tag: UInt32, payload: [UInt8])]) -> Data {
        let body = chunks.reduce(4) { $0 + 8 + $1.payload.count + ($1.payload.count & 1) }
        var file = Data(capacity: 8 + body)
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) } }
        append32(WebPContainer.riff)
        append32(UInt32(body))
        append32(WebPContainer.webp)
        for chunk in chunks {
            append32(chunk.tag)
            append32(UInt32(chunk.payload.count))
            file.append(contentsOf: chunk.payload)
            if chunk.payload.count & 1 == 1 { file.append(0) }
        }
        return file
    }

    /// The payload of a `VP8X` chunk for a still `width` × `height` picture
    /// with the feature `flags` (`WebPContainer.alphaFlag`, ...).
    static func extendedHeader(width: Int, height: Int, flags: UInt8) -> [UInt8] {
        func u24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
        return [flags, 0, 0, 0] + u24(width - 1) + u24(height - 1)
    }
}
