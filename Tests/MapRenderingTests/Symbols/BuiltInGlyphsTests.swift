import Foundation
@testable import MapRendering
import Raster
import XCTest

/// The package's built-in glyph set: made by the glyph generator from Open
/// Sans Regular, serving every font stack, and what a style without `glyphs`
/// draws its labels with.
final class BuiltInGlyphsTests: XCTestCase {
    static let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fonts")

    /// Latin, Greek, Cyrillic and punctuation are held for any font stack;
    /// a range outside the set, or a malformed range name, is not.
    func testTheSetHoldsItsScriptsForAnyFontStack() throws {
        let cache = GlyphCache(provider: BuiltInGlyphs())
        for character in ["A", "é", "Ł", "Ω", "Ж", "—"] {
            let scalar = try XCTUnwrap(character.unicodeScalars.first)
            XCTAssertNotNil(cache.glyph(scalar.value, fontStack: ["Noto Sans Regular"]), character)
        }
        XCTAssertEqual(BuiltInGlyphs.rangeStarts, [0, 256, 768, 1024, 8192])
        XCTAssertNil(try BuiltInGlyphs().glyphRange(fontStack: "Any", range: "19968-20223", limits: .default), "no CJK")
        XCTAssertNil(try BuiltInGlyphs().glyphRange(fontStack: "Any", range: "0-10", limits: .default))
        XCTAssertEqual(cache.errors, [])
    }

    /// The embedded range is what the generator makes from the font today
    /// (General Punctuation, the smallest range), so the set is "made this way".
    func testTheEmbeddedRangeIsTheGeneratorsOutput() throws {
        let font = try TrueTypeFont(bytes: Array(Data(contentsOf: Self.fonts.appendingPathComponent("OpenSans-Regular.ttf"))))
        let made = try XCTUnwrap(GlyphRangeWriter(font: font, fontStackName: BuiltInGlyphs.fontName).rangeData(start: 8192))
        XCTAssertEqual(try BuiltInGlyphs().glyphRange(fontStack: "Any", range: "8192-8447", limits: .default), made)
    }

    /// A style without `glyphs` draws its point labels from the built-in set
    /// (MapLibre would draw no text): ink where the label is.
    func testAStyleWithoutGlyphsDrawsItsLabels() throws {
        let style = Data(#"""
        {"version": 8, "center": [0, 0], "zoom": 5,
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "t", "type": "symbol", "source": "p",
                     "layout": {"text-field": "Ωmega", "text-font": ["Noto Sans Regular"], "text-size": 24}}]}
        """#.utf8)
        let folder = FileManager.default.temporaryDirectory
        let bitmap = try StyleDocumentRenderer(style: style, resources: StyleFolderResources(folder: folder)).render(width: 128, height: 64)
        var ink = 0
        for y in 0..<64 { for x in 0..<128 where bitmap[x, y].r < 100 { ink += 1 } }
        XCTAssertGreaterThan(ink, 60, "the label's glyphs are drawn")
    }
}
