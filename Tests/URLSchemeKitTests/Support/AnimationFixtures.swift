import Foundation
import XCTest
import ImageCodecs
import Raster

/// The codec tests' animated GIF and WebP fixtures and their references
/// (`Tests/ImageCodecsTests/Fixtures`, made by `Scripts/make_gif_fixtures.py`
/// with gifsicle and Pillow, and `Scripts/make_webp_fixtures.py` with Pillow's
/// libwebp), for the loader and scheme tests.
enum AnimationFixtures {
    static let codecFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ImageCodecsTests/Fixtures", isDirectory: true)

    /// The GIF fixture `name` (without extension): file, frames stacked top to bottom, and its JSON facts.
    static func gif(_ name: String) throws -> (file: Data, frames: [Bitmap], delays: [Double], loop: Int) {
        let directory = Self.codecFixtures.appendingPathComponent("gif")
        let facts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name + ".json"))) as? [String: Any])
        let width = try XCTUnwrap(facts["width"] as? Int), height = try XCTUnwrap(facts["height"] as? Int)
        let count = try XCTUnwrap(facts["frames"] as? Int), delays = try XCTUnwrap(facts["delays_ms"] as? [Int])
        let stacked = try PNGDecoder().decode(Data(contentsOf: directory.appendingPathComponent(name + ".png")))
        XCTAssertEqual([stacked.width, stacked.height], [width, height * count])
        let frames = try (0..<count).map { try stacked.cropped(to: PixelRect(x: 0, y: $0 * height, width: width, height: height)) }
        // Browsers: a stored count N repeats N times after the first play; none plays once; 0 forever.
        let stored = facts["loop"] as? Int
        let loop = stored.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
        return (try Data(contentsOf: directory.appendingPathComponent(name + ".gif")), frames,
                delays.map { $0 < 20 ? 0.1 : Double($0) / 1000 }, loop)
    }

    /// The animated WebP fixture `name`: file and, per frame, size, stored milliseconds, loop and FNV-1a 64 of the RGBA.
    static func webP(_ name: String) throws -> (file: Data, frames: [(width: Int, height: Int, milliseconds: Int, loop: Int, hash: String)]) {
        let directory = Self.codecFixtures.appendingPathComponent("webp")
        let table = try String(contentsOf: directory.appendingPathComponent("anim_expectations.tsv"), encoding: .utf8)
        let frames = table.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t").map(String.init) }.filter { $0[0] == name }
            .map { (width: Int($0[2])!, height: Int($0[3])!, milliseconds: Int($0[4])!, loop: Int($0[5])!, hash: $0[6]) }
        return (try Data(contentsOf: directory.appendingPathComponent(name)), frames)
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
