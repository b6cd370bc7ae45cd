import Foundation
import XCTest
@testable import Raster

/// The TrueType reader and text drawing, against FreeType (fixtures made by
/// `Fixtures/make_glyph_fixtures.py`) and the font's own metrics.
final class TrueTypeTextTests: XCTestCase {
    private let glyphDirectory = Fixture.directory.appendingPathComponent("glyphs")

    /// White text on black, 96×96, baseline origin (16, 72): the fixtures' set-up. Returns the red channel.
    private func render(_ text: String, size: Double = 64) throws -> [UInt8] {
        var canvas = try Canvas(width: 96, height: 96, background: .black)
        try canvas.draw(text: text, font: try TrueTypeFont.dejaVuSans, size: size, at: Point(16, 72), color: .white)
        return stride(from: 0, to: canvas.bitmap.pixels.count, by: 4).map { canvas.bitmap.pixels[$0] }
    }

    private func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let squared = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / Double(a.count)))
    }

    func testGlyphsAt64PixelsMatchFreeTypeAbove30dB() throws {
        for (name, text) in [("g", "g"), ("zhe", "Ж"), ("eacute", "é"), ("omega", "Ω"), ("ampersand", "&")] {
            let reference = [UInt8](try Data(contentsOf: glyphDirectory.appendingPathComponent("\(name)_96x96.gray")))
            let ours = try render(text)
            XCTAssertGreaterThan(reference.filter { $0 > 128 }.count, 200, "fixture \(name) shows a glyph")
            XCTAssertGreaterThanOrEqual(psnr(ours, reference), 30, "\(text) against FreeType")
        }
    }

    func testCyrillicCoversPixelsAndAdvancesByTheFontsMetrics() throws {
        let font = try TrueTypeFont.dejaVuSans
        let lines = try String(contentsOf: glyphDirectory.appendingPathComponent("metrics.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(lines.count, 3)
        for line in lines {
            let fields = line.split(separator: "\t")
            let text = String(fields[0]), units = try XCTUnwrap(Double(fields[1]))
            XCTAssertEqual(TextLine(text, font: font, size: 2048).width, units, accuracy: 1e-9, text)
            XCTAssertEqual(TextLine(text, font: font, size: 12).width, units * 12 / 2048, accuracy: 1e-9, text)
        }
        var canvas = try Canvas(width: 200, height: 30, background: .white)
        try canvas.draw(text: "Санкт-Петербург", font: font, size: 14, at: Point(4, 20), color: .black)
        let dark = stride(from: 0, to: canvas.bitmap.pixels.count, by: 4).filter { canvas.bitmap.pixels[$0] < 128 }.count
        XCTAssertGreaterThan(dark, 150, "Cyrillic letters cover pixels")
    }

    func testKerningTightensKnownPairs() throws {
        let font = try TrueTypeFont.dejaVuSans
        let a = try XCTUnwrap(font.glyph(for: "A")), v = try XCTUnwrap(font.glyph(for: "V"))
        XCTAssertLessThan(font.kerning(a, v), 0, "DejaVu Sans kerns A–V")
        let av = TextLine("AV", font: font, size: 100).width
        XCTAssertLessThan(av, Double(font.advanceWidth(ofGlyph: a) + font.advanceWidth(ofGlyph: v)) * 100 / 2048)
    }

    func testMissingCharacterDrawsTheReplacementGlyph() throws {
        let font = try TrueTypeFont.dejaVuSans
        XCTAssertNil(font.glyph(for: "漢"), "the subset has no CJK")
        let line = TextLine("漢", font: font, size: 20)
        XCTAssertEqual(line.glyphs.map(\.glyph), [font.replacementGlyph])
        XCTAssertNotEqual(font.replacementGlyph, 0, "U+FFFD is in the font")
        var canvas = try Canvas(width: 40, height: 30, background: .white)
        try canvas.draw(line, at: Point(5, 22), color: .black)
        XCTAssertTrue(canvas.bitmap.pixels.contains { $0 < 100 }, "a visible replacement")
    }

    func testHaloSurroundsTheText() throws {
        let font = try TrueTypeFont.dejaVuSans
        var plain = try Canvas(width: 60, height: 30, background: RGBA(0, 0, 255))
        var haloed = plain
        try plain.draw(text: "Oslo", font: font, size: 12, at: Point(10, 20), color: .black)
        try haloed.draw(text: "Oslo", font: font, size: 12, at: Point(10, 20), color: .black, halo: .white, haloWidth: 1.5)
        let whiteish = { (c: Canvas) in stride(from: 0, to: c.bitmap.pixels.count, by: 4).filter { c.bitmap.pixels[$0] > 200 }.count }
        XCTAssertEqual(whiteish(plain), 0)
        XCTAssertGreaterThan(whiteish(haloed), 60)
    }

    func testParagraphWrapsAtSpacesWithinTheWidth() throws {
        let font = try TrueTypeFont.dejaVuSans
        let paragraph = TextParagraph("Saint Petersburg is the second city of Russia", font: font, size: 12, maximumWidth: 100)
        XCTAssertGreaterThan(paragraph.lines.count, 2)
        XCTAssertTrue(paragraph.lines.allSatisfy { $0.width <= 100 })
        XCTAssertEqual(paragraph.lines.map(\.glyphs.count).reduce(0, +) + paragraph.lines.count - 1, 45, "only the breaking spaces are dropped")
        let long = TextParagraph("Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch", font: font, size: 12, maximumWidth: 80)
        XCTAssertTrue(long.lines.allSatisfy { $0.width <= 80 }, "a word wider than the limit is broken")
        XCTAssertGreaterThan(long.lines.count, 3)
        // Long input wraps in one pass (each character measured once), keeping every character.
        let huge = TextParagraph(String(repeating: "Ab ", count: 5000) + String(repeating: "x", count: 20_000), font: font, size: 12, maximumWidth: 200)
        XCTAssertTrue(huge.lines.allSatisfy { $0.width <= 200 })
        let space = try XCTUnwrap(font.glyph(for: " "))
        XCTAssertEqual(huge.lines.flatMap(\.glyphs).filter { $0.glyph != space }.count, 30_000, "every letter set")
    }

    func testDamagedFontsThrowInsteadOfTrapping() throws {
        XCTAssertThrowsError(try TrueTypeFont(bytes: [])) { XCTAssertEqual($0 as? TrueTypeError, .truncated("the table directory")) }
        XCTAssertThrowsError(try TrueTypeFont(bytes: [0, 1, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 6))) {
            XCTAssertEqual($0 as? TrueTypeError, .missingTable("head"))
        }
        // Every truncation of the real font, and bytes flipped through it: errors, never traps.
        let data = [UInt8](Data(base64Encoded: TrueTypeFont.dejaVuSansBase64, options: .ignoreUnknownCharacters)!)
        for length in stride(from: 0, to: data.count, by: 997) {
            if let font = try? TrueTypeFont(bytes: Array(data[..<length])) { _ = try? font.outline(ofGlyph: 40) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<30 {
            var damaged = data
            for _ in 0..<20 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            guard let font = try? TrueTypeFont(bytes: damaged) else { continue }
            for glyph in stride(from: 0, to: font.glyphCount, by: 7) { _ = try? font.outline(ofGlyph: glyph) }
        }
    }
}
