import Foundation
@testable import MapRendering

/// Builds glyph range files in MapLibre's protobuf by hand, for tests.
enum GlyphPBF {
    static func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        return out + [UInt8(v)]
    }

    static func field(_ number: UInt64, varint value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }
    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }
    static func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }

    /// One glyph message.
    static func glyph(_ g: SDFGlyph, bitmapOverride: [UInt8]? = nil) -> [UInt8] {
        var out = field(1, varint: UInt64(g.id))
        let bitmap = bitmapOverride ?? g.bitmap
        if !bitmap.isEmpty { out += field(2, bytes: bitmap) }
        out += field(3, varint: UInt64(g.width)) + field(4, varint: UInt64(g.height))
        out += field(5, varint: zigzag(g.left)) + field(6, varint: zigzag(g.top)) + field(7, varint: UInt64(g.advance))
        return out
    }

    /// A whole file: one font stack holding `glyphs` (encoded glyph messages).
    static func file(name: String = "Test", range: String = "0-255", glyphs: [[UInt8]]) -> Data {
        var stack = field(1, bytes: Array(name.utf8)) + field(2, bytes: Array(range.utf8))
        for g in glyphs { stack += field(3, bytes: g) }
        return Data(field(1, bytes: stack))
    }

    /// A glyph whose ink is a `side`-pixel square of solid inside (255), with the
    /// border's distances falling off outside it (as a real field does).
    static func square(_ id: UInt32, side: Int, left: Int, top: Int, advance: Int) -> SDFGlyph {
        let b = SDFGlyph.border, w = side + 2 * b
        var bitmap = [UInt8](repeating: 0, count: w * w)
        for y in 0..<w {
            for x in 0..<w {
                // Pixels outside the square: 192 at its edge, 8 less per pixel out (SDF_PX).
                let dx = max(0, b - x, x - (w - 1 - b)), dy = max(0, b - y, y - (w - 1 - b))
                let outside = Double(max(dx, dy))
                bitmap[y * w + x] = outside == 0 ? 255 : UInt8(max(0, 192 - 8 * (outside - 0.5)))
            }
        }
        return SDFGlyph(id: id, width: side, height: side, left: left, top: top, advance: advance, bitmap: bitmap)
    }
}
