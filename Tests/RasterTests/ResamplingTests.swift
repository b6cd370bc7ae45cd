import XCTest
@testable import Raster

final class ResamplingTests: XCTestCase {
    func testResizeStopsWhenCancellationThrows() throws {
        struct Stop: Error {}
        let tall = try Bitmap(width: 8, height: 300, rgba: (0..<8 * 300 * 4).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var calls = 0
        XCTAssertThrowsError(try tall.resized(width: 5, height: 200, checkCancellation: { calls += 1; throw Stop() })) {
            XCTAssertTrue($0 is Stop)
        }
        XCTAssertEqual(calls, 1, "the first check (row 64 of the horizontal pass) ends it")
        calls = 0
        XCTAssertNoThrow(try tall.resized(width: 20, height: 100, mode: .stretch, checkCancellation: { calls += 1 }))
        XCTAssertEqual(calls, 4 + 1, "every 64 rows of each pass: 300 source rows, then 100 output rows")
    }

    func testLanczosMatchesPillowDownAndUp() throws {
        let photo = try Fixture.bitmap("photo_64x48.rgba", 64, 48)
        let down = try photo.resized(width: 24, height: 18)
        XCTAssertGreaterThanOrEqual(Fixture.psnr(down, try Fixture.bitmap("lanczos_24x18.rgba", 24, 18)), 40)
        let up = try photo.resized(width: 100, height: 75, filter: .lanczos3)
        XCTAssertGreaterThanOrEqual(Fixture.psnr(up, try Fixture.bitmap("lanczos_100x75.rgba", 100, 75)), 40)
        // Same weights and fixed-point layout as Pillow: on opaque input it is within one level.
        XCTAssertLessThanOrEqual(Fixture.maxDifference(down, try Fixture.bitmap("lanczos_24x18.rgba", 24, 18)), 1)
    }

    func testLanczosWithAlphaMatchesPillowPremultiplied() throws {
        let photo = try Fixture.bitmap("photo_alpha_64x48.rgba", 64, 48)
        let down = try photo.resized(width: 24, height: 18)
        XCTAssertGreaterThanOrEqual(Fixture.psnr(down, try Fixture.bitmap("lanczos_alpha_24x18.rgba", 24, 18)), 45)
    }

    func testBilinearMatchesPillow() throws {
        let photo = try Fixture.bitmap("photo_64x48.rgba", 64, 48)
        let down = try photo.resized(width: 24, height: 18, filter: .bilinear)
        XCTAssertGreaterThanOrEqual(Fixture.psnr(down, try Fixture.bitmap("bilinear_24x18.rgba", 24, 18)), 40)
    }

    func testTransparentNeighboursLeaveNoDarkFringe() throws {
        // Left half opaque white, right half transparent black: a straight-alpha
        // resize would pull white towards grey at the border.
        var bitmap = try Bitmap(width: 8, height: 2)
        for y in 0..<2 { for x in 0..<4 { bitmap[x, y] = .white } }
        for filter in [ResamplingFilter.lanczos3, .bilinear, .box] {
            let out = try bitmap.resized(width: 5, height: 2, filter: filter)
            for x in 0..<5 where out[x, 0].a > 8 {
                XCTAssertGreaterThanOrEqual(out[x, 0].r, 250, "\(filter) pixel \(x): \(out[x, 0])")
            }
        }
    }

    func testBoxHalvingAveragesPairsAndNearestPicks() throws {
        let bitmap = try Bitmap(width: 4, height: 1, rgba: [0, 0, 0, 255, 100, 100, 100, 255, 200, 200, 200, 255, 50, 50, 50, 255])
        let box = try bitmap.resized(width: 2, height: 1, filter: .box)
        XCTAssertEqual(box[0, 0], RGBA(50, 50, 50))
        XCTAssertEqual(box[1, 0], RGBA(125, 125, 125))
        let nearest = try bitmap.resized(width: 8, height: 2, filter: .nearest)
        XCTAssertEqual(nearest[2, 1], RGBA(100, 100, 100))
        XCTAssertEqual(nearest[7, 0], RGBA(50, 50, 50))
    }

    func testFitFillStretch() throws {
        let photo = try Fixture.bitmap("photo_64x48.rgba", 64, 48)
        let fit = try photo.resized(width: 32, height: 32, mode: .fit)
        XCTAssertEqual([fit.width, fit.height], [32, 24])
        let fill = try photo.resized(width: 32, height: 32, mode: .fill)
        XCTAssertEqual([fill.width, fill.height], [32, 32])
        let stretch = try photo.resized(width: 10, height: 40, mode: .stretch)
        XCTAssertEqual([stretch.width, stretch.height], [10, 40])
    }

    func testBadTargetsThrow() throws {
        let photo = try Fixture.bitmap("photo_64x48.rgba", 64, 48)
        XCTAssertThrowsError(try photo.resized(width: 0, height: 10))
        XCTAssertThrowsError(try photo.resized(width: -3, height: 10, mode: .fit))
        XCTAssertThrowsError(try photo.resized(width: 1 << 20, height: 1 << 20))
        XCTAssertThrowsError(try Bitmap(width: 0, height: 4).resized(width: 2, height: 2))
        // 1×1 extremes work.
        XCTAssertEqual(try photo.resized(width: 1, height: 1).width, 1)
        XCTAssertEqual(try Bitmap(width: 1, height: 1, fill: .white).resized(width: 30, height: 3)[29, 2], .white)
    }
}

extension ResamplingTests {
    /// `.fill` crops the source to the box's shape before resampling: a
    /// panorama filled into a big square resamples only the square's part
    /// (the old way scaled the whole strip to 65,536 × 4,096 first). The
    /// pixels are the centre of the source, as Pillow's `ImageOps.fit` gives.
    func testFillCropsBeforeResampling() throws {
        var strip = try Bitmap(width: 1600, height: 100, fill: .white)
        for y in 0..<100 { for x in 0..<1600 { strip[x, y] = RGBA(UInt8(x / 7 % 256), UInt8(y * 2), x >= 750 && x < 850 ? 255 : 0) } }
        let square = try strip.resized(width: 400, height: 400, mode: .fill)
        XCTAssertEqual([square.width, square.height], [400, 400])
        let centre = try strip.cropped(to: PixelRect(x: 750, y: 0, width: 100, height: 100)).resized(width: 400, height: 400)
        XCTAssertEqual(square.pixels, centre.pixels)
        // Down as well as up: a 1600 × 100 strip into 40 × 10 keeps its middle 400 × 100.
        let wide = try strip.resized(width: 40, height: 10, mode: .fill)
        XCTAssertEqual(wide.pixels, try strip.cropped(to: PixelRect(x: 600, y: 0, width: 400, height: 100)).resized(width: 40, height: 10).pixels)
    }
}
