import Foundation

/// The hostile corpus's GIF and WebP files too large to keep in the
/// repository, written at run time (`make_hostile.py` names them in its
/// cases). Deterministic, so every run loads the same bytes.
enum HostileAnimations {
    /// Every generated file by name.
    static func files() -> [String: Data] {
        ["gif-100k-frames.gif": gifOfManyFrames(), "gif-endless-lzw.gif": gifWithEndlessLZW(),
         "webp-100k-frames.webp": webPOfManyFrames(), "gif-64mp.gif": gifOfAHugeScreen(),
         "gif-499-frames.gif": gifOfManyFrames(count: 499, screen: 180)]
    }

    private static func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func u24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    private static func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }

    /// `count` frames of one pixel each on a `screen` × `screen` canvas (by
    /// default 100,000 on 400×400, 1.5 MB): a frame deep in it composites
    /// thousands of canvases.
    static func gifOfManyFrames(count: Int = 100_000, screen: Int = 400) -> Data {
        var bytes = Array("GIF89a".utf8) + u16(screen) + u16(screen) + [0x80, 0, 0] + [255, 0, 0, 0, 0, 255]
        bytes.reserveCapacity(bytes.count + count * 15 + 1)
        for i in 0..<count {
            // One pixel of index i % 2: code size 2, codes clear, index, end (3 bits each).
            bytes += [0x2C] + u16(i % screen) + u16(i / screen % screen) + u16(1) + u16(1) + [0]
            bytes += [2, 2, i % 2 == 0 ? 0x44 : 0x4C, 0x01, 0]
        }
        return Data(bytes + [0x3B])
    }

    /// A 1000×1000 image whose LZW data is 16 MiB of clear codes, with no end
    /// code, no block terminator and no trailer: it never draws a pixel and
    /// never ends, until the file does.
    static func gifWithEndlessLZW() -> Data {
        var bytes = Array("GIF89a".utf8) + u16(1000) + u16(1000) + [0x87, 0, 0] + [UInt8](repeating: 128, count: 768)
        bytes += [0x2C] + u16(0) + u16(0) + u16(1000) + u16(1000) + [0, 8]
        // Eight 9-bit clear codes (256) fill 9 bytes exactly, least significant bit first.
        var pattern = [UInt8](repeating: 0, count: 9)
        for code in 0..<8 { let bit = code * 9 + 8; pattern[bit / 8] |= 1 << UInt8(bit % 8) }
        var data: [UInt8] = []
        data.reserveCapacity(16 << 20)
        var offset = 0
        while data.count < 16 << 20 {
            data.append(255)  // a full sub-block; the pattern runs on across them
            for _ in 0..<255 {
                data.append(pattern[offset % 9])
                offset += 1
            }
        }
        return Data(bytes + data)
    }

    /// A 35-byte GIF whose screen and one image are 8000×8000 (64
    /// megapixels, 256 MB as RGBA), its LZW data drawing one pixel.
    static func gifOfAHugeScreen() -> Data {
        let bytes = Array("GIF89a".utf8) + u16(8000) + u16(8000) + [0x80, 0, 0] + [255, 0, 0, 0, 0, 255]
            + [0x2C] + u16(0) + u16(0) + u16(8000) + u16(8000) + [0] + [2, 2, 0x44, 0x01, 0] + [0x3B]
        return Data(bytes)
    }

    /// An animated WebP listing 100,000 frames of one pixel (3.2 MB).
    static func webPOfManyFrames() -> Data {
        // A 1×1 lossless picture's VP8L chunk, as Pillow 13.0.0 writes it (see make_hostile.py's canvas bomb).
        let vp8l: [UInt8] = [0x56, 0x50, 0x38, 0x4C, 0x0F, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x00, 0x00, 0x00, 0x07, 0x10,
                             0xFD, 0x8F, 0xFE, 0x07, 0x22, 0xA2, 0xFF, 0x01, 0x00]
        var body = Array("WEBP".utf8)
        body += Array("VP8X".utf8) + u32(10) + [0x02, 0, 0, 0] + u24(399) + u24(399)
        body += Array("ANIM".utf8) + u32(6) + [0, 0, 0, 0] + u16(0)
        body.reserveCapacity(body.count + 100_000 * (24 + vp8l.count))
        for i in 0..<100_000 {
            body += Array("ANMF".utf8) + u32(16 + vp8l.count) + u24(i % 200) + u24(i / 200 % 200) + u24(0) + u24(0) + u24(100) + [0]
            body += vp8l
        }
        return Data(Array("RIFF".utf8) + u32(body.count) + body)
    }
}
