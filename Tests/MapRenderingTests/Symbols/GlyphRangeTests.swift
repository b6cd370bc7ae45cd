import Foundation
import XCTest
@testable import MapRendering

/// Glyph range files: decoding MapLibre's protobuf, the limits and clear
/// errors for hostile files, a folder of ranges, the cache and its fallback.
final class GlyphRangeTests: XCTestCase {
    func testDecodesHandBuiltRange() throws {
        let a = GlyphPBF.square(65, side: 4, left: 1, top: -12, advance: 11)
        let space = SDFGlyph(id: 32, width: 0, height: 0, left: 0, top: -26, advance: 6, bitmap: [])
        let outside = GlyphPBF.square(300, side: 2, left: 0, top: 0, advance: 5)
        let data = GlyphPBF.file(glyphs: [GlyphPBF.glyph(a), GlyphPBF.glyph(space), GlyphPBF.glyph(outside)])
        let range = try GlyphRange(data: data, start: 0)
        XCTAssertEqual(range.glyphs.count, 2, "the glyph outside 0-255 is dropped")
        XCTAssertEqual(range.glyphs[65], a)
        XCTAssertEqual(range.glyphs[65]?.bitmapWidth, 10)
        XCTAssertEqual(range.glyphs[65]?.top, -12, "top is a zig-zag sint32")
        XCTAssertEqual(range.glyphs[32]?.advance, 6)
        XCTAssertEqual(range.glyphs[32]?.bitmap, [])
    }

    func testDecodesSuiteRange() throws {
        // The suite's range, as copied with the passing render tests.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/maplibre-render-tests/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf")
        let data = try Data(contentsOf: url)
        let range = try GlyphRange(data: data, start: 0)
        let a = try XCTUnwrap(range.glyphs[65])
        XCTAssertEqual(a.bitmap.count, (a.width + 6) * (a.height + 6))
        XCTAssertGreaterThan(a.advance, 10)
    }

    func testRefusesHostileFiles() {
        let a = GlyphPBF.square(65, side: 4, left: 0, top: 0, advance: 10)
        func message(_ data: Data, limits: GlyphRangeLimits = .default) -> String {
            do {
                _ = try GlyphRange(data: data, start: 0, file: "F/0-255.pbf", limits: limits)
                return "accepted"
            } catch let error as GlyphRangeError {
                return error.message
            } catch {
                return "other error \(error)"
            }
        }
        let wrongBitmap = GlyphPBF.file(glyphs: [GlyphPBF.glyph(a, bitmapOverride: [1, 2, 3])])
        XCTAssertEqual(message(wrongBitmap), "F/0-255.pbf: glyph 65 is 4×4 with a 3-pixel border, so its bitmap is 100 bytes, not 3")
        var huge = a
        huge.width = 5000
        XCTAssertTrue(message(GlyphPBF.file(glyphs: [GlyphPBF.glyph(huge)])).contains("width 5000, over the limit of 255 pixels"))
        let many = GlyphPBF.file(glyphs: Array(repeating: GlyphPBF.glyph(a), count: 20))
        XCTAssertTrue(message(many, limits: GlyphRangeLimits(maximumGlyphs: 10)).contains("more than 10 glyphs"))
        XCTAssertTrue(message(Data(count: 100), limits: GlyphRangeLimits(maximumBytes: 50)).contains("100 bytes, over the limit of 50"))
        let truncated = GlyphPBF.file(glyphs: [GlyphPBF.glyph(a)]).dropLast(5)
        XCTAssertTrue(message(Data(truncated)).hasPrefix("F/0-255.pbf: protobuf data ends inside"))
        let noID = GlyphPBF.file(glyphs: [GlyphPBF.field(3, varint: 4)])
        XCTAssertEqual(message(noID), "F/0-255.pbf: a glyph has no id (field 1)")
    }

    /// A folder with ranges for two fonts, not for their joined stack.
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        for (font, glyph) in [("One", GlyphPBF.square(65, side: 4, left: 0, top: 0, advance: 10)),
                              ("Two", GlyphPBF.square(66, side: 4, left: 0, top: 0, advance: 20))] {
            let dir = folder.appendingPathComponent(font)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try GlyphPBF.file(name: font, glyphs: [GlyphPBF.glyph(glyph)]).write(to: dir.appendingPathComponent("0-255.pbf"))
        }
        return folder
    }

    func testCacheFallsBackGlyphByGlyphAndBounds() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = try GlyphFolderProvider(template: "file://\(folder.path)/{fontstack}/{range}.pbf")
        let cache = GlyphCache(provider: provider, maximumRanges: 2)
        XCTAssertEqual(cache.glyph(65, fontStack: ["One", "Two"])?.advance, 10)
        XCTAssertEqual(cache.glyph(66, fontStack: ["One", "Two"])?.advance, 20, "B comes from the second font")
        XCTAssertNil(cache.glyph(67, fontStack: ["One", "Two"]))
        XCTAssertNil(cache.glyph(65, fontStack: ["../One"]), "a font stack leaving the folder is refused")
        XCTAssertEqual(cache.errors, [])
    }

    func testCacheKeepsRangeErrorsOnce() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x0A, 0xFF, 0xFF, 0x01]).write(to: folder.appendingPathComponent("One/256-511.pbf"))
        let cache = GlyphCache(provider: GlyphFolderProvider(folder: folder))
        XCTAssertNil(cache.glyph(300, fontStack: ["One"]))
        XCTAssertNil(cache.glyph(301, fontStack: ["One"]))
        XCTAssertEqual(cache.errors.count, 1)
        XCTAssertTrue(cache.errors[0].hasPrefix("One/256-511.pbf: protobuf data ends inside"), cache.errors[0])
    }

    func testFolderProviderRefusesOtherSchemesAndHugeFiles() throws {
        XCTAssertThrowsError(try GlyphFolderProvider(template: "https://example.com/{fontstack}/{range}.pbf"))
        XCTAssertThrowsError(try GlyphFolderProvider(template: "file:///fonts/{fontstack}/0-255.pbf"))
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = GlyphFolderProvider(folder: folder)
        XCTAssertThrowsError(try provider.glyphRange(fontStack: "One", range: "0-255", limits: GlyphRangeLimits(maximumBytes: 10))) {
            XCTAssertTrue(String(describing: $0).contains("over the limit of 10 bytes"))
        }
        XCTAssertNil(try provider.glyphRange(fontStack: "None", range: "0-255", limits: .default))
    }
}
