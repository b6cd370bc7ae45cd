import Foundation

/// Builds small JPEG files segment by segment, for inputs no encoder writes:
/// one grey component, a quantisation table of ones, and Huffman tables of a
/// single one-bit code, so each block of a DC scan costs one bit and one
/// end-of-band symbol of an AC scan skips up to 32,767 blocks.
struct SyntheticJPEG {
    var bytes: [UInt8] = [0xFF, 0xD8]

    /// SOI, DQT, SOF (`progressive` or baseline) of `width` × `height`, and the tables.
    init(width: Int, height: Int, progressive: Bool) {
        segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        segment(progressive ? 0xC2 : 0xC0, [8, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255), 1, 1, 0x11, 0])
        // DC table 0: one code, '0', for symbol 0 (no difference).
        segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        // AC table 0: one code, '0': symbol 0xE0 in progressive files (an
        // end-of-band run of 2^14 plus 14 more bits), 0x00 (end of block) in baseline ones.
        segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [progressive ? 0xE0 : 0x00])
    }

    mutating func segment(_ marker: UInt8, _ body: [UInt8]) {
        bytes += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
    }

    /// A scan of component 1 with these spectral and successive-approximation parameters, then `data`.
    mutating func scan(ss: Int, se: Int, ah: Int, al: Int, data: [UInt8]) {
        segment(0xDA, [1, 1, 0x00, UInt8(ss), UInt8(se), UInt8(ah << 4 | al)])
        bytes += data
    }

    /// Data for an AC scan of `blocks` blocks: end-of-band runs of 32,767 blocks
    /// (code '0', then fourteen 1 bits), padded with ones.
    static func endOfBandRuns(blocks: Int) -> [UInt8] {
        var bits: [Bool] = []
        for _ in 0..<((blocks + 32766) / 32767) { bits += [false] + [Bool](repeating: true, count: 14) }
        while bits.count % 8 != 0 { bits.append(true) }
        var data: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for bit in bits[start..<start + 8] { byte = byte << 1 | (bit ? 1 : 0) }
            data.append(byte)
            if byte == 0xFF { data.append(0) }  // stuffing
        }
        return data
    }

    /// The file with its EOI.
    var data: Data { Data(bytes + [0xFF, 0xD9]) }
}
