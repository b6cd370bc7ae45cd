import Foundation
import XCTest
@testable import Raster

/// Loads the raw RGBA fixtures written by `Fixtures/make_expectations.py`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bitmap(_ name: String, _ width: Int, _ height: Int) throws -> Bitmap {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try Bitmap(width: width, height: height, rgba: [UInt8](data))
    }

    /// PSNR in dB over all four channels (infinity when identical).
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var squared = 0.0
        for i in a.pixels.indices {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            squared += d * d
        }
        let mse = squared / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The largest absolute per-channel difference.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
