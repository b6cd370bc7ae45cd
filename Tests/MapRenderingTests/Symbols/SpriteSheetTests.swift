import Foundation
import ImageCodecs
import Raster
import XCTest
@testable import MapRendering

/// Sprite files read as MapLibre reads them: the `.json` index with its
/// entries' fields, the `.png` sheet, `@2x` by pixel ratio, the array form's
/// `id:` names; hostile files refused with the file and the limit named.
final class SpriteSheetTests: XCTestCase {
    /// A PNG `width` × `height` of `color`.
    static func png(_ width: Int, _ height: Int, _ color: RGBA = RGBA(255, 0, 0)) throws -> Data {
        try PNGEncoder().encode(Bitmap(width: width, height: height, fill: color))
    }

    func testIndexEntriesAreRead() throws {
        let index = #"""
        {"pin": {"x": 2, "y": 1, "width": 4, "height": 6, "pixelRatio": 2, "sdf": true,
                 "stretchX": [[1, 3]], "stretchY": [[0, 2], [4, 6]], "content": [1, 1, 3, 5]},
         "dot": {"x": 0, "y": 0, "width": 1, "height": 1}}
        """#
        let sheet = try SpriteSheet(index: Data(index.utf8), sheet: Self.png(8, 8), name: "s")
        let pin = try XCTUnwrap(sheet.images["pin"])
        XCTAssertEqual([pin.x, pin.y, pin.width, pin.height], [2, 1, 4, 6])
        XCTAssertEqual(pin.pixelRatio, 2)
        XCTAssertTrue(pin.sdf)
        XCTAssertEqual(pin.stretchX, [1...3])
        XCTAssertEqual(pin.stretchY, [0...2, 4...6])
        XCTAssertEqual(pin.content, [1, 1, 3, 5])
        XCTAssertEqual(pin.displayWidth, 2)
        let dot = try XCTUnwrap(sheet.images["dot"])
        XCTAssertEqual(dot.pixelRatio, 1)
        XCTAssertFalse(dot.sdf)
        XCTAssertEqual(sheet.images.count, 2)
    }

    func testHostileSpritesAreRefusedNamingTheFileAndLimit() throws {
        var small = SpriteLimits()
        small.maximumEntryCount = 2
        small.maximumSheetPixels = 100
        small.maximumIndexBytes = 200
        let entry = #"{"x": 0, "y": 0, "width": 1, "height": 1}"#
        let cases: [(index: String, sheet: Data, fragment: String)] = [
            (#"{"a": \#(entry), "b": \#(entry), "c": \#(entry)}"#, try Self.png(4, 4), "s.json: the index names 3 images, over the limit of 2"),
            (#"{"a": \#(entry)}"#, try Self.png(11, 10), "s.png: the sheet is 11×10 pixels, over the limit of 100"),
            (#"{"a": \#(String(repeating: " ", count: 300))\#(entry)}"#, try Self.png(4, 4), "s.json: the index is 348 bytes, over the limit of 200"),
            (#"{"a": {"x": 3, "y": 0, "width": 2, "height": 1}}"#, try Self.png(4, 4), "image 'a' (3, 0, 2×1) lies outside the 4×4 sheet"),
            (#"{"a": {"x": 0, "y": 0, "width": -1, "height": 1}}"#, try Self.png(4, 4), "image 'a': 'width' is a whole number 1–65535, not -1"),
            (#"{"a": {"x": 0, "y": 0, "height": 1}}"#, try Self.png(4, 4), "image 'a': 'width' is a required number"),
            (#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 0}}"#, try Self.png(4, 4), "'pixelRatio' is a number over 0"),
            (#"{"a": {"x": 0, "y": 0, "width": 2, "height": 1, "stretchX": [[1, 5]]}}"#, try Self.png(4, 4), "'stretchX' holds [from, to] pairs within the image's 2 pixels"),
            (#"[1, 2]"#, try Self.png(4, 4), "s.json: the index is a JSON object of images"),
            (#"{"a": "#, try Self.png(4, 4), "s.json: not a JSON index"),
            (String(repeating: "[", count: 150), try Self.png(4, 4), "s.json: not a JSON index: the style nests arrays and objects deeper"),
            (#"{"a": \#(entry)}"#, Data("GIF89a".utf8), "s.png: not a PNG sheet"),
        ]
        var limits = small
        for (index, sheet, fragment) in cases {
            limits.maximumIndexBytes = index.hasPrefix("[[[") ? 4096 : small.maximumIndexBytes
            XCTAssertThrowsError(try SpriteSheet(index: Data(index.utf8), sheet: sheet, name: "s", limits: limits), fragment) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.contains(fragment), "\(message) lacks \(fragment)")
                XCTAssertTrue(message.hasPrefix("sprite s."), message)
            }
        }
    }

    /// A folder with `name`.json/.png and `name`@2x.json/.png, the @2x sheet's image blue.
    static func spriteFolder(_ name: String = "sprite") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sprites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"pin": {"x": 0, "y": 0, "width": 2, "height": 2}}"#.utf8).write(to: folder.appendingPathComponent("\(name).json"))
        try png(2, 2).write(to: folder.appendingPathComponent("\(name).png"))
        try Data(#"{"pin": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 2}}"#.utf8).write(to: folder.appendingPathComponent("\(name)@2x.json"))
        try png(4, 4, RGBA(0, 0, 255)).write(to: folder.appendingPathComponent("\(name)@2x.png"))
        return folder
    }

    func testStyleSpritesLoadFromAFolderAtTheirPixelRatio() throws {
        let folder = try Self.spriteFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = DirectorySpriteProvider(directory: folder)
        let one = try VectorStyle(json: #"{"version": 8, "sprite": "sprite", "layers": []}"#)
        XCTAssertEqual(one.sprites, [StyleSprite(id: "default", url: "sprite")])
        XCTAssertEqual(one.warnings, [])
        XCTAssertEqual(try Sprites(of: one, pixelRatio: 1, from: provider).images["pin"]?.width, 2)
        let sharp = try XCTUnwrap(Sprites(of: one, pixelRatio: 2, from: provider).images["pin"])
        XCTAssertEqual([sharp.width, Int(sharp.pixelRatio)], [4, 2])
        XCTAssertEqual(sharp.sheet[0, 0], RGBA(0, 0, 255))

        let url = folder.appendingPathComponent("sprite").absoluteString
        let array = try VectorStyle(json: #"{"version": 8, "sprite": [{"id": "default", "url": "sprite"}, {"id": "poi", "url": "\#(url)"}], "layers": []}"#)
        XCTAssertEqual(try Sprites(of: array, pixelRatio: 1, from: provider).images.keys.sorted(), ["pin", "poi:pin"])
    }

    func testBadSpriteURLsAndValuesAreRefused() throws {
        let folder = try Self.spriteFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = DirectorySpriteProvider(directory: folder)
        for (url, fragment) in [("../sprite", "only file:// URLs and paths inside"), ("https://example.com/s", "only file:// URLs"),
                                ("missing", "sprite missing.json: cannot be read")] {
            let style = try VectorStyle(json: #"{"version": 8, "sprite": "\#(url)", "layers": []}"#)
            XCTAssertThrowsError(try Sprites(of: style, pixelRatio: 1, from: provider)) { error in
                XCTAssertTrue(String(describing: error).contains(fragment), "\(error)")
            }
        }
        var small = SpriteLimits()
        small.maximumSheetBytes = 10
        let style = try VectorStyle(json: #"{"version": 8, "sprite": "sprite", "layers": []}"#)
        XCTAssertThrowsError(try Sprites(of: style, pixelRatio: 1, from: provider, limits: small)) { error in
            XCTAssertTrue(String(describing: error).contains("sprite sprite.png: the file is"), "\(error)")
        }
        for value in ["42", #"[{"id": "a"}]"#, #"[{"id": "a", "url": "x"}, {"id": "a", "url": "y"}]"#] {
            XCTAssertThrowsError(try VectorStyle(json: #"{"version": 8, "sprite": \#(value), "layers": []}"#)) { error in
                XCTAssertEqual((error as? VectorStyleError)?.property, "sprite", "\(error)")
            }
        }
    }
}
