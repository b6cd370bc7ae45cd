import Foundation
import ImageCodecs
import Raster
import XCTest
@testable import MapRendering

/// Our snapshots against MapLibre Native's of the same tiles and the same
/// label-free style, rendered by `Scripts/make_vector_map_maplibre_references.py`
/// (PyPI `pymgl`, Mesa's software OpenGL): 512×512 over central Helsinki at
/// MapLibre zooms 13–16 (ours 14–17, one more: 256-point tiles).
final class VectorMapLikenessTests: XCTestCase {
    /// PSNR over the RGB channels, in dB.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var sum = 0.0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.width * a.height * 3)
        return 10 * log10(255 * 255 / mse)
    }

    /// Two renderers of one map differ by anti-aliasing only: the issue asks for
    /// 30 dB at every zoom; we measure 35.3–40.8 and hold 33 (leaving out the
    /// `road` layer measures 26.7–31.6 dB).
    func testLabelFreeStyleLooksLikeMapLibreNative() throws {
        try assertLikeness(schema: "openmaptiles", prefix: "helsinki-", zooms: 13...16)
    }

    /// The same for the Protomaps schema and our light Protomaps style, at MapLibre zoom 14.
    func testProtomapsLabelFreeStyleLooksLikeMapLibreNative() throws {
        try assertLikeness(schema: "protomaps", prefix: "helsinki-protomaps-", zooms: 14...14)
    }

    func assertLikeness(schema: String, prefix: String, zooms: ClosedRange<Int>) throws {
        let tiles = VectorMapRendererTests.tiles
        let style = try VectorStyle(data: Data(contentsOf: tiles.appendingPathComponent("\(prefix)label-free-style.json")))
        XCTAssertEqual(style.warnings, [])
        let archive = try PMTilesArchive(url: tiles.appendingPathComponent("helsinki-\(schema).pmtiles"))
        let renderer = VectorMapRenderer(archive: archive, sourceName: schema, style: style)
        for zoom in zooms {
            let reference = try ImageDecoder.decode(Data(contentsOf: tiles.appendingPathComponent("\(prefix)maplibre-z\(zoom).png"))).bitmap
            let ours = try renderer.render(VectorMapCamera(center: VectorMapRendererTests.center, zoom: Double(zoom + 1), width: 512, height: 512))
            XCTAssertEqual(ours.width, reference.width)
            XCTAssertEqual(ours.height, reference.height)
            let measured = Self.psnr(ours, reference)
            print("VectorMapLikenessTests: \(schema), MapLibre zoom \(zoom): PSNR \(String(format: "%.2f", measured)) dB")
            XCTAssertGreaterThanOrEqual(measured, 33, "\(schema), MapLibre zoom \(zoom)")
        }
    }
}
