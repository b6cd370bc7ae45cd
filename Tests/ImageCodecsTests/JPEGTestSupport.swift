import Foundation
import Raster

/// Helpers shared by the JPEG tests.
enum JPEGTestSupport {
    /// Reads a binary PPM (P6, maxval 255) as packed RGB8.
    static func readPPM(_ url: URL) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: url))
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var value = 0
            while bytes[i] >= 0x30 && bytes[i] <= 0x39 { value = value * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(value)
        }
        i += 1
        return (fields[0], fields[1], Array(bytes[i..<(i + fields[0] * fields[1] * 3)]))
    }


    /// PSNR of `b` against `a` over RGB, or (`gray`) of `b`'s one channel against `a`'s BT.601 luma.
    static func psnr(_ a: Bitmap, _ b: Bitmap, gray: Bool = false) -> Double {
        var squared = 0.0, n = 0.0
        for i in 0..<(a.width * a.height) {
            let luma = { (p: [UInt8]) in 0.299 * Double(p[i * 4]) + 0.587 * Double(p[i * 4 + 1]) + 0.114 * Double(p[i * 4 + 2]) }
            if gray {
                let d = luma(a.pixels) - Double(b.pixels[i * 4])
                squared += d * d; n += 1
            } else {
                for c in 0..<3 {
                    let d = Double(a.pixels[i * 4 + c]) - Double(b.pixels[i * 4 + c])
                    squared += d * d; n += 1
                }
            }
        }
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / n))
    }

    /// A smooth 45×37 test picture with an edge, so both DCT energy and colour are exercised.
    static func syntheticBitmap() throws -> Bitmap {
        var pixels = [UInt8]()
        for y in 0..<37 {
            for x in 0..<45 {
                let edge = x > 20 && y > 15
                pixels += [UInt8(x * 5), UInt8(y * 6), edge ? 220 : 40, 255]
            }
        }
        return try Bitmap(width: 45, height: 37, rgba: pixels)
    }

}
