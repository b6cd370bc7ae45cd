import Foundation
import ImageCodecs
import Raster

// libFuzzer entry for the lossless WebP encoder: a round trip. The first four
// bytes give the picture's width and height (1…64 each) and how many colours
// it draws from (the rest of the input is pixels, repeated to fill it), so
// palettes of every size, bundled or not, and full-colour pictures with alpha
// are all reached. The file must decode, with our decoder, to exactly the
// same pixels; anything else traps and is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPEncode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard bytes.count >= 5 else { return 0 }
    let width = Int(bytes[0] & 63) + 1, height = Int(bytes[1] & 63) + 1
    let colours = Int(bytes[2]) + 1, effort = Int(bytes[3]) % 10
    let source = Array(bytes[4...])
    // A palette of `colours` drawn from the input, then each pixel one of them.
    var palette: [[UInt8]] = []
    for index in 0..<colours {
        palette.append((0..<4).map { source[(index * 4 + $0) % source.count] })
    }
    var rgba: [UInt8] = []
    rgba.reserveCapacity(width * height * 4)
    for pixel in 0..<(width * height) {
        rgba += palette[Int(source[pixel % source.count]) % colours]
    }
    guard let bitmap = try? Bitmap(width: width, height: height, rgba: rgba) else { return 0 }
    let data: Data
    do { data = try WebPLosslessEncoder(effort: effort).encode(bitmap) } catch { fatalError("encode failed: \(error)") }
    guard let decoded = try? WebPDecoder().decode(data) else { fatalError("our own WebP did not decode") }
    guard decoded.pixels == bitmap.pixels else { fatalError("the round trip changed pixels") }
    return 0
}
