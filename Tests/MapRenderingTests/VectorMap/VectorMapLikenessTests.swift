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

    /// Two renderers of one map differ by anti-aliasing only: at least 30 dB at
    /// every zoom (a missing layer or a 2-pixel shift measures about 23 dB).
    func testLabelFreeStyleLooksLikeMapLibreNative() throws {
        let tiles = VectorMapRendererTests.tiles
        let style = try VectorStyle(data: Data(contentsOf: tiles.appendingPathComponent("helsinki-label-free-style.json")))
        XCTAssertEqual(style.warnings, [])
        let archive = try PMTilesArchive(url: tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"))
        let renderer = VectorMapRenderer(archive: archive, sourceName: "helsinki", style: style)
        for zoom in 13...16 {
            let reference = try ImageDecoder.decode(Data(contentsOf: tiles.appendingPathComponent("helsinki-maplibre-z\(zoom).png"))).bitmap
            let ours = try renderer.render(VectorMapCamera(center: VectorMapRendererTests.center, zoom: Double(zoom + 1), width: 512, height: 512))
            XCTAssertEqual(ours.width, reference.width)
            XCTAssertEqual(ours.height, reference.height)
            let measured = Self.psnr(ours, reference)
            print("VectorMapLikenessTests: MapLibre zoom \(zoom): PSNR \(String(format: "%.2f", measured)) dB")
            XCTAssertGreaterThanOrEqual(measured, 30, "MapLibre zoom \(zoom)")
        }
    }
}
