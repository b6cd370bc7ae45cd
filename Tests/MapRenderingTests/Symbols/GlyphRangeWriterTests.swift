import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Glyph ranges made from TrueType fonts, read back by ``GlyphRange`` and
/// compared with fontnik's own file of the same font.
final class GlyphRangeWriterTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    func testARangeReadsBackWithTheFontsMetrics() throws {
        let writer = GlyphRangeWriter(font: try .dejaVuSans, fontStackName: "DejaVu Sans")
        let data = try XCTUnwrap(try writer.rangeData(start: 0))
        let range = try GlyphRange(data: data, start: 0)
        let a = try XCTUnwrap(range.glyphs[0x41])
        // DejaVu Sans' "A": 1401 units of 2048 to the em, at 24 pixels, 16.4, truncated.
        XCTAssertEqual(a.advance, 16)
        XCTAssertEqual(a.bitmap.count, (a.width + 6) * (a.height + 6))
        // The cap height, 1493 units, 17.5 pixels, rounded up; the ascender, 1901 units, 22.3 pixels, rounded up.
        XCTAssertEqual(a.top, 18 - 23)
        XCTAssertEqual(a.height, 18)
        XCTAssertEqual(a.left, 0)
        let space = try XCTUnwrap(range.glyphs[0x20])
        XCTAssertTrue(space.bitmap.isEmpty)
        XCTAssertEqual(space.advance, 7, "651 units, 7.6 pixels, truncated")
        // The bar of "l" is inside (over 192), the corner of its bitmap about 4.5 pixels outside (192 - 4.5 · 32).
        let l = try XCTUnwrap(range.glyphs[0x6C])
        let columns = l.width + 6, rows = l.height + 6
        XCTAssertGreaterThan(l.bitmap[(rows / 2) * columns + columns / 2], 192)
        XCTAssertLessThan(l.bitmap[0], 64)
        XCTAssertNil(try writer.rangeData(start: 0xE000), "no glyph in the private use area: no file")
        XCTAssertTrue(writer.rangeStarts.contains(0) && writer.rangeStarts.contains(0x400), "Latin and Cyrillic")
    }

    func testAGlyphOverTheLimitsIsRefusedByName() throws {
        let writer = GlyphRangeWriter(font: try .dejaVuSans, fontStackName: "DejaVu Sans", limits: GlyphRangeLimits(maximumGlyphSide: 12))
        XCTAssertThrowsError(try writer.glyph(0x41)) { error in
            XCTAssertEqual("\(error)", "glyph U+41 is 17×18 pixels at 24 pixels to the em, over the limit of 12 (GlyphRangeLimits.maximumGlyphSide)")
        }
        XCTAssertNotNil(try writer.glyph(0x2E), "a full stop fits")
        XCTAssertThrowsError(try writer.rangeData(start: 0), "the range holds \"A\"")
    }

    /// fontnik made the suite's `Open Sans Semibold` 0–255 from the same font:
    /// every glyph's metrics agree, and nearly every distance within a quarter
    /// of a pixel (8 levels).
    func testOpenSansSemiboldAsFontnikMakesIt() throws {
        let font = try TrueTypeFont(bytes: Array(Data(contentsOf: Self.fixtures.appendingPathComponent("fonts/OpenSans-Semibold.ttf"))))
        let theirs = try GlyphRange(data: Data(contentsOf: Self.fixtures.appendingPathComponent(
            "maplibre-render-tests/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf")), start: 0)
        let ours = try GlyphRange(data: XCTUnwrap(GlyphRangeWriter(font: font, fontStackName: "Open Sans Semibold").rangeData(start: 0)), start: 0)
        var compared = 0, metricsDiffer: [String] = [], totalDifference = 0, pixels = 0, worst = 0, near = 0
        for id in UInt32(0x21)...0x7E {  // printable ASCII
            guard let fontnik = theirs.glyphs[id], let glyph = ours.glyphs[id] else { continue }
            compared += 1
            let metrics = [glyph.width - fontnik.width, glyph.height - fontnik.height, glyph.left - fontnik.left, glyph.top - fontnik.top,
                           glyph.advance - fontnik.advance]
            guard metrics.allSatisfy({ $0 == 0 }) else {
                metricsDiffer.append("\(Character(Unicode.Scalar(id)!)) \(metrics)")
                continue
            }
            for (a, b) in zip(glyph.bitmap, fontnik.bitmap) {
                let difference = abs(Int(a) - Int(b))
                totalDifference += difference
                worst = max(worst, difference)
                pixels += 1
                if difference < 8 { near += 1 }
            }
        }
        XCTAssertEqual(compared, 94)
        XCTAssertEqual(metricsDiffer, [], "metrics (width, height, left, top, advance) differ")
        let mean = Double(totalDifference) / Double(max(pixels, 1)), nearShare = Double(near) / Double(max(pixels, 1))
        XCTAssertLessThan(mean, 2.5, "mean difference of distances over \(pixels) pixels; worst \(worst)")
        XCTAssertGreaterThan(nearShare, 0.9, "share of distances within 8 levels")
        print("GlyphRangeWriter vs fontnik, Open Sans Semibold 0-255: \(compared - metricsDiffer.count) of \(compared) glyphs' metrics equal; distances differ by \(String(format: "%.2f", mean)) levels on average, \(String(format: "%.1f", nearShare * 100)) % within 8, at most \(worst), over \(pixels) pixels")
    }
}
