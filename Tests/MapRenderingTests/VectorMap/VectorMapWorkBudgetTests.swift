import Foundation
import Raster
import Synchronization
import XCTest
@testable import MapRendering

/// What a hostile style can make one snapshot do: expressions bounded in
/// nodes when the style is read, lines' generated geometry (dashes, offsets,
/// joins) bounded per snapshot, and cancellation honoured inside the loops
/// that evaluate a style per feature.
final class VectorMapWorkBudgetTests: XCTestCase {
    static let archive = VectorMapRendererTests.tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles")

    /// A style of one line layer on the roads whose `line-width` coalesces
    /// `terms` `["id"]`s (the fixture's features have no id: each is evaluated).
    static func idTermsStyle(terms: Int, limits: StyleLimits = .default) throws -> VectorStyle {
        let sum = "[\"coalesce\"" + String(repeating: ",[\"id\"]", count: terms) + ",1]"
        return try VectorStyle(json: """
        {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
          {"id": "id-terms", "type": "line", "source": "s", "source-layer": "transportation", "paint": {"line-width": \(sum)}}
        ]}
        """, limits: limits)
    }

    /// An expression over `StyleLimits.maximumExpressionNodes` is refused when
    /// the style is read, naming the layer, the property and the limit.
    func testAnExpressionOverTheNodeLimitIsRefusedWhenRead() throws {
        XCTAssertNoThrow(try Self.idTermsStyle(terms: 9_998))
        XCTAssertThrowsError(try Self.idTermsStyle(terms: 9_999)) { error in
            let error = error as? VectorStyleError
            XCTAssertEqual(error?.kind, .limitExceeded)
            XCTAssertEqual(error?.layer, "id-terms")
            XCTAssertEqual(error?.property, "line-width")
            XCTAssertTrue(error?.detail.contains("10000") == true && error?.detail.contains("maximumExpressionNodes") == true, "\(String(describing: error))")
        }
        // Filters are counted too.
        let filter = "[\"any\"" + String(repeating: ",[\"==\",[\"id\"],1]", count: 4_000) + "]"
        XCTAssertThrowsError(try VectorStyle(json: """
        {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
          {"id": "f", "type": "line", "source": "s", "source-layer": "transportation", "filter": \(filter)}
        ]}
        """)) { error in
            XCTAssertEqual((error as? VectorStyleError)?.property, "filter")
        }
    }

    /// A snapshot evaluating a costly expression for every feature (the node
    /// limit raised) ends within 100 ms of its cancellation: the per-feature
    /// loops poll it, not only the steps between chunks of layers.
    func testACancelledSnapshotStopsWithin100msInsideThePerFeatureLoop() throws {
        let style = try Self.idTermsStyle(terms: 50_000, limits: StyleLimits(maximumExpressionNodes: 100_000))
        let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: Self.archive), sourceName: "helsinki", style: style)
        let camera = VectorMapCamera(center: VectorMapRendererTests.center, zoom: 15, width: 512, height: 512)
        let cancellation = RenderCancellation()
        let cancelled = Mutex<Date?>(nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            cancelled.withLock { $0 = Date() }
            cancellation.cancel()
        }
        XCTAssertThrowsError(try renderer.render(camera, cancellation: cancellation)) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let ended = Date()
        let at = try XCTUnwrap(cancelled.withLock { $0 }, "the snapshot finished before it was cancelled")
        print("the snapshot ended \(ended.timeIntervalSince(at)) s after its cancellation")
        XCTAssertLessThan(ended.timeIntervalSince(at), 0.1, "the snapshot ran \(ended.timeIntervalSince(at)) s past its cancellation")
    }

    /// Dashes, casings and offsets a snapshot would generate past
    /// `VectorMapLimits.generatedGeometryPerSnapshot` fail the snapshot before
    /// they are made, naming the layer and the limit; a real style stays far within it.
    func testGeneratedGeometryOverTheSnapshotBudgetFailsNamingTheLayer() throws {
        let dashes = Array(repeating: "0.0001", count: 100_000).joined(separator: ",")
        let style = try VectorStyle(json: """
        {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
          {"id": "dashed", "type": "line", "source": "s", "source-layer": "transportation",
           "paint": {"line-width": 1e9, "line-dasharray": [\(dashes)]}}
        ]}
        """)
        let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: Self.archive), sourceName: "helsinki", style: style)
        let camera = VectorMapCamera(center: VectorMapRendererTests.center, zoom: 15, width: 256, height: 256)
        let started = Date()
        XCTAssertThrowsError(try renderer.render(camera)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded)
            let text = "\(error)"
            XCTAssertTrue(text.contains("layer 'dashed'") && text.contains("generatedGeometryPerSnapshot")
                          && text.contains("\(VectorMapLimits.default.generatedGeometryPerSnapshot)"), text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)

        // The built-in style's densest view is far within the default.
        let light = try VectorMapRendererTests.renderer(.light, limits: VectorMapLimits(generatedGeometryPerSnapshot: VectorMapLimits.default.generatedGeometryPerSnapshot / 8))
        XCTAssertNoThrow(try light.render(VectorMapCamera(center: VectorMapRendererTests.center, zoom: 15, width: 1024, height: 1024, scale: 2)))
    }
}
