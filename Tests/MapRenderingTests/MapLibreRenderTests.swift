import XCTest
@testable import MapRenderTesting

/// The MapLibre render tests we pass (copied by the runner into
/// `Fixtures/maplibre-render-tests`) keep passing, compared as MapLibre
/// Native compares them.
final class MapLibreRenderTests: XCTestCase {
    private static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/maplibre-render-tests")

    func testEveryCopiedRenderTestStillPasses() throws {
        let tests = try RenderTest.all(in: Self.suite.appendingPathComponent("render-tests"))
        XCTAssertGreaterThanOrEqual(tests.count, 18, "the copied tests are missing")
        let renderer = RenderTestRenderer(integration: Self.suite)
        for test in tests {
            XCTAssertNil(test.notStatic, test.name)
            let outcome = renderer.run(test).outcome
            guard case .passed = outcome else { return XCTFail("\(test.name): \(outcome)") }
        }
    }

    func testAFailingRenderIsReportedWithItsDifference() throws {
        // The same style with another colour than its expected image: every pixel differs.
        let source = Self.suite.appendingPathComponent("render-tests/background-color/literal")
        let root = try temporaryFolder()
        let folder = root.appendingPathComponent("render-tests/background-color/recoloured")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let style = try String(contentsOf: source.appendingPathComponent("style.json"), encoding: .utf8)
        XCTAssertTrue(style.contains("\"red\""), "the fixture changed: \(style)")
        try style.replacingOccurrences(of: "\"red\"", with: "\"blue\"").write(to: folder.appendingPathComponent("style.json"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: source.appendingPathComponent("expected.png"), to: folder.appendingPathComponent("expected.png"))
        let test = try RenderTest(name: "background-color/recoloured", folder: folder)
        XCTAssertEqual(RenderTestRenderer(integration: root).run(test).outcome, .failed(difference: 1))
    }

    func testPixelMatchCountsADifferentPixelButNotAnAntialiasedEdge() {
        let (width, height) = (8, 8)
        func image(_ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
            (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
        }
        let white: [UInt8] = [255, 255, 255, 255], black: [UInt8] = [0, 0, 0, 255], grey: [UInt8] = [128, 128, 128, 255]
        // A black left half; one image has a grey ramp pixel on the edge, as anti-aliasing leaves.
        let edge = image { x, _ in x < 4 ? black : white }
        let softened = image { x, y in x < 4 ? black : (x == 4 && y == 3 ? grey : white) }
        let dotted = image { x, y in x == 6 && y == 6 ? black : (x < 4 ? black : white) }
        let match = PixelMatch()
        XCTAssertEqual(match.compare(edge, edge, width: width, height: height).count, 0)
        XCTAssertEqual(match.compare(softened, edge, width: width, height: height).count, 0, "an anti-aliased edge pixel is not counted")
        XCTAssertEqual(match.compare(dotted, edge, width: width, height: height).count, 1, "a lone black dot on white is")
        // Translucent pixels are compared over white: transparent equals white, half-transparent black does not.
        let transparent = image { _, _ in [0, 0, 0, 0] }, halfBlack = image { _, _ in [0, 0, 0, 128] }
        XCTAssertEqual(match.compare(transparent, image { _, _ in white }, width: width, height: height).count, 0)
        XCTAssertEqual(match.compare(halfBlack, image { _, _ in white }, width: width, height: height).count, width * height)
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}
