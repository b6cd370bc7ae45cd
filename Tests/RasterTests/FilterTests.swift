import XCTest
@testable import Raster

final class FilterTests: XCTestCase {
    private func photo() throws -> Bitmap { try Fixture.bitmap("photo_64x48.rgba", 64, 48) }

    func testBlurMatchesPillowGaussianBlur() throws {
        let ours = try photo().applying(.blur(radius: 2))
        let pillow = try Fixture.bitmap("blur2_64x48.rgba", 64, 48)
        // Same three extended-box passes; only rounding differs.
        XCTAssertGreaterThanOrEqual(Fixture.psnr(ours, pillow), 50)
        XCTAssertLessThanOrEqual(Fixture.maxDifference(ours, pillow), 2)
    }

    func testBlurIsCloseToTrueGaussian() throws {
        let input = try photo()
        let ours = try input.applying(.blur(radius: 2))
        // Slow reference: a true separable Gaussian, sigma 2, kernel ±8, edges clamped.
        let sigma = 2.0, reach = 8
        let kernel = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        var horizontal = [Double](repeating: 0, count: input.pixels.count)
        for y in 0..<48 { for x in 0..<64 { for c in 0..<4 {
            var s = 0.0
            for k in -reach...reach { s += kernel[k + reach] * Double(input.pixels[(y * 64 + min(63, max(0, x + k))) * 4 + c]) }
            horizontal[(y * 64 + x) * 4 + c] = s / total
        } } }
        var worst = 0.0
        for y in 0..<48 { for x in 0..<64 { for c in 0..<3 {
            var s = 0.0
            for k in -reach...reach { s += kernel[k + reach] * horizontal[(min(47, max(0, y + k)) * 64 + x) * 4 + c] }
            worst = max(worst, abs(s / total - Double(ours.pixels[(y * 64 + x) * 4 + c])))
        } } }
        // Stated tolerance: within 4 levels of the exact Gaussian on this image.
        XCTAssertLessThanOrEqual(worst, 4)
    }

    /// Bands with margins give the whole-image blur: a band's clamped edge rows
    /// are never kept. (The photo is 48 rows; bands of 4 to 40 rows, radii
    /// small and large, opaque and with alpha.)
    func testBlurInBandsEqualsTheWholeImageBlur() throws {
        var translucent = try photo()
        for i in stride(from: 3, to: translucent.pixels.count, by: 4) { translucent.pixels[i] = UInt8(i / 4 % 256) }
        for input in [try photo(), translucent] {
            for radius in [0.6, 2, 5.5] {
                let whole = try GaussianBlur.blurred(input, radius: radius, maximumBandRows: 1_000)
                for rows in [4, 7, 40] {
                    let banded = try GaussianBlur.blurred(input, radius: radius, maximumBandRows: rows)
                    // Running sums start at a different row, so float rounding may move a sample by one level.
                    XCTAssertLessThanOrEqual(Fixture.maxDifference(banded, whole), 1, "radius \(radius), bands of \(rows) rows")
                }
            }
        }
    }

    func testBlurAndSharpenStopWhenCancellationThrows() throws {
        struct Stop: Error {}
        var calls = 0
        let check = { calls += 1; if calls > 2 { throw Stop() } }
        XCTAssertThrowsError(try GaussianBlur.blurred(try photo(), radius: 1, maximumBandRows: 8, checkCancellation: check)) {
            XCTAssertTrue($0 is Stop)
        }
        XCTAssertEqual(calls, 3, "checked before each band, stopped at the third")
        // Inside a sharpen: once before the filter, then before its blur's (one) band.
        calls = 1
        XCTAssertThrowsError(try photo().applying(.sharpen(radius: 2, percent: 100, threshold: 0), checkCancellation: check))
        XCTAssertEqual(calls, 3)
        XCTAssertNoThrow(try photo().applying([.invert, .blur(radius: 3)], checkCancellation: {}))
    }

    func testBlurKeepsFlatImagesFlatAtAnyRadius() throws {
        let flat = try Bitmap(width: 7, height: 3, fill: RGBA(10, 200, 30, 128))
        for radius in [0.3, 1, 2.5, 40, 1000] {
            XCTAssertEqual(try flat.applying(.blur(radius: radius)), flat, "radius \(radius)")
        }
        // A white dot on transparent black spreads as white: transparent pixels do not darken it.
        var dot = try Bitmap(width: 5, height: 5)
        dot[2, 2] = .white
        let spread = try dot.applying(.blur(radius: 1.5))
        XCTAssertEqual(spread[1, 2].r, 255)
        XCTAssertGreaterThan(spread[1, 2].a, 0)
        XCTAssertLessThan(spread[2, 2].a, 255)
    }

    func testColourFiltersAgainstDirectFormulas() throws {
        let input = try photo()
        let gray = try input.applying(.grayscale)
        let sepia = try input.applying(.sepia)
        for i in stride(from: 0, to: input.pixels.count, by: 4 * 37) {
            let r = Double(input.pixels[i]), g = Double(input.pixels[i + 1]), b = Double(input.pixels[i + 2])
            let y = UInt8(min(255, (0.2126 * r + 0.7152 * g + 0.0722 * b).rounded()))
            XCTAssertEqual(gray.pixels[i], y)
            XCTAssertEqual(gray.pixels[i + 2], y)
            XCTAssertEqual(sepia.pixels[i + 1], UInt8(min(255, (0.349 * r + 0.686 * g + 0.168 * b).rounded())))
        }
        XCTAssertEqual(try input.applying([.invert, .invert]), input)
        XCTAssertEqual(try input.applying(.invert).pixels[4], 255 - input.pixels[4])
        XCTAssertEqual(try input.applying([.brightness(1), .contrast(1), .saturation(1)]), input)
        XCTAssertEqual(try input.applying(.brightness(0)).pixels[0...3], [0, 0, 0, 255])
        XCTAssertEqual(try input.applying(.saturation(0)), gray)
        let flat = try input.applying(.contrast(0))
        XCTAssertEqual(flat.pixels[0], flat.pixels[400])
    }

    func testOpacityAndSharpen() throws {
        let input = try photo()
        let half = try input.applying(.opacity(0.5))
        XCTAssertEqual(half.pixels[3], 128)
        XCTAssertEqual(half.pixels[0...2], input.pixels[0...2])
        XCTAssertEqual(try input.applying(.sharpen(radius: 2, percent: 0, threshold: 0)), input)
        // A step edge gets over- and undershoot.
        var step = try Bitmap(width: 10, height: 1, fill: RGBA(50, 50, 50))
        for x in 5..<10 { step[x, 0] = RGBA(200, 200, 200) }
        let sharp = try step.applying(.sharpen(radius: 1, percent: 150, threshold: 0))
        XCTAssertLessThan(sharp[4, 0].r, 50)
        XCTAssertGreaterThan(sharp[5, 0].r, 200)
    }

    func testBadParametersThrow() throws {
        let input = try photo()
        for filter in [ImageFilter.blur(radius: .nan), .blur(radius: -1), .brightness(.infinity), .contrast(-1),
                       .opacity(2), .sharpen(radius: 1, percent: -5, threshold: 0), .saturation(.nan)] {
            XCTAssertThrowsError(try input.applying(filter), "\(filter)")
        }
        XCTAssertEqual(try Bitmap(width: 0, height: 3).applying([.blur(radius: 3), .grayscale]).width, 0)
    }
}
