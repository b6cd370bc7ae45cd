import Foundation
import ImageCodecs
import Raster

// libFuzzer entry for the lossy WebP encoder: a round trip. The first three
// bytes give the picture's width and height (1…48 each) and the quality
// (1…100); the rest are the colours and alpha of a coarse grid, every 8
// pixels, that the picture interpolates between (photos are smooth between
// their edges; noise is not what the error bound below is about). The file
// must decode with our decoder, alpha exactly, colour within the error the
// quality allows: a PSNR floor rising from 15 dB at quality 1 to 22 dB at 100.
// The floor is there to catch a broken encoder (which lands tens of dB
// below), not to rank quality (the benchmark does that). Two losses no
// quality removes bound it: 4:2:0 shares one chroma sample between
// neighbours, which in these gradients differ by up to 32 levels, so a pixel
// may miss by 16 (24 dB) at any quality (seed `psnr-floor-q74`: 26.04 dB at
// quality 74); and at the lowest qualities one chroma DC step of over 100
// levels decides a tiny picture's colour (seed `psnr-floor-q2`: 17.7 dB at
// quality 2, where libwebp gets 19.4). Anything else traps and is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPLossy(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard bytes.count >= 4 else { return 0 }
    let width = Int(bytes[0]) % 48 + 1, height = Int(bytes[1]) % 48 + 1, quality = Int(bytes[2]) % 100 + 1
    let grid = Array(bytes[3...])
    let gridWidth = width / 8 + 2
    func control(_ gx: Int, _ gy: Int, _ channel: Int) -> Double {
        Double(grid[((gy * gridWidth + gx) * 4 + channel) % grid.count])
    }
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let gx = x / 8, gy = y / 8, fx = Double(x % 8) / 8, fy = Double(y % 8) / 8
            for channel in 0..<4 {
                let top = control(gx, gy, channel) * (1 - fx) + control(gx + 1, gy, channel) * fx
                let bottom = control(gx, gy + 1, channel) * (1 - fx) + control(gx + 1, gy + 1, channel) * fx
                rgba[(y * width + x) * 4 + channel] = UInt8((top * (1 - fy) + bottom * fy).rounded())
            }
        }
    }
    guard let bitmap = try? Bitmap(width: width, height: height, rgba: rgba) else { return 0 }
    let data: Data
    do { data = try WebPLossyEncoder(quality: quality).encode(bitmap) } catch { fatalError("encode failed: \(error)") }
    guard let decoded = try? WebPDecoder().decode(data) else { fatalError("our own lossy WebP did not decode") }
    guard decoded.width == width, decoded.height == height else { fatalError("the size changed") }
    var squares = 0.0
    for index in stride(from: 0, to: rgba.count, by: 4) {
        guard decoded.pixels[index + 3] == rgba[index + 3] else { fatalError("alpha changed at pixel \(index / 4)") }
        for channel in 0..<3 {
            let d = Double(decoded.pixels[index + channel]) - Double(rgba[index + channel])
            squares += d * d
        }
    }
    let psnr = 10 * log10(255 * 255 * Double(width * height * 3) / max(squares, 1e-9))
    let floor = 15 + 7 * Double(quality - 1) / 99
    guard psnr >= floor else { fatalError("PSNR \(psnr) dB at quality \(quality), below \(floor) dB") }
    return 0
}
