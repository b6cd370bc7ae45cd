import Foundation
import ImageCodecs

// libFuzzer entry for the PNG decoder. Each input is decoded twice: as given,
// and with every chunk's CRC recomputed, so that mutations get past the CRC
// check into the header, filter and inflate logic. The raw bytes also go
// straight to inflate. Any trap, hang or runaway allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let decoder = PNGDecoder()  // the production pixel limit
    _ = try? decoder.decode(Data(bytes))
    _ = try? decoder.readInfo(Data(bytes))
    _ = try? decoder.decode(Data(withFixedCRCs(bytes)))
    _ = try? Inflater.zlibDecompress(bytes, limit: 4 * defaultMaximumPixelCount)
    return 0
}

/// Rewrites each chunk's CRC to match its bytes (where the chunk layout allows).
func withFixedCRCs(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        guard length <= bytes.count - offset - 12 else { break }
        let crc = CRC32.checksum(bytes[(offset + 4)..<(offset + 8 + length)])
        let at = offset + 8 + length
        bytes[at] = UInt8(crc >> 24); bytes[at + 1] = UInt8((crc >> 16) & 0xFF)
        bytes[at + 2] = UInt8((crc >> 8) & 0xFF); bytes[at + 3] = UInt8(crc & 0xFF)
        offset = at + 4
    }
    return bytes
}
