import Foundation
import ImageCodecs
import Raster

// libFuzzer entry for the GIF encoder: a round trip of an animation. The
// first four bytes give the canvas (1…32 each side), how many colours the
// frames draw from (1…255, alpha included) and the frame count (1…4, the top
// bit asks for dithering); the rest of the input is the palette and then the
// pixels, repeated to fill every frame. Each frame then has at most 255
// colours once alpha is cut at 128, so the file must decode, with our decoder,
// to exactly those pixels, frame for frame, with the delays given; anything
// else traps and is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFEncode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard bytes.count >= 5 else { return 0 }
    let width = Int(bytes[0] & 31) + 1, height = Int(bytes[1] & 31) + 1
    let colours = Int(bytes[2]) % 255 + 1, frameCount = Int(bytes[3] & 3) + 1, dithers = bytes[3] & 0x80 != 0
    let source = Array(bytes[4...])
    var palette: [[UInt8]] = []
    for index in 0..<colours {
        palette.append((0..<4).map { source[(index * 4 + $0) % source.count] })
    }
    let pixels = width * height
    guard var encoder = try? GIFAnimationEncoder(width: width, height: height, loopCount: Int(bytes[2] % 4), dithers: dithers) else {
        fatalError("a \(width)×\(height) canvas was refused")
    }
    var expected: [[UInt8]] = [], delays: [Double] = []
    for frame in 0..<frameCount {
        var rgba: [UInt8] = [], cut: [UInt8] = []
        rgba.reserveCapacity(pixels * 4)
        for pixel in 0..<pixels {
            let color = palette[Int(source[(frame * pixels + pixel) % source.count]) % colours]
            rgba += color
            cut += color[3] >= 128 ? [color[0], color[1], color[2], 255] : [0, 0, 0, 0]
        }
        guard let bitmap = try? Bitmap(width: width, height: height, rgba: rgba) else { return 0 }
        let delay = Double(20 + Int(source[frame % source.count])) / 100
        do { try encoder.add(bitmap, delay: delay) } catch { fatalError("add failed: \(error)") }
        expected.append(cut)
        delays.append(delay)
    }
    let data: Data
    do { data = try encoder.finish() } catch { fatalError("finish failed: \(error)") }
    guard var animation = try? ImageDecoder.animation(data) else { fatalError("our own GIF did not open") }
    for (index, want) in expected.enumerated() {
        guard let frame = try? animation.nextFrame() else { fatalError("frame \(index) did not decode") }
        guard frame.bitmap.pixels == want else { fatalError("the round trip changed frame \(index)'s pixels") }
        guard abs(frame.delay - delays[index]) < 0.001 else { fatalError("frame \(index)'s delay changed") }
    }
    guard (try? animation.nextFrame()) == nil else { fatalError("the GIF holds more frames than were added") }
    return 0
}
