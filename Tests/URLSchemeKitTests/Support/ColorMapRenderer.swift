import Foundation
import Synchronization
import XCTest
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// A `map://` renderer for loader tests: counts renders, notices cancellation,
/// can hold every render at a gate, and draws either the real basemap or a
/// small PNG filled with `ColorMapRenderer.color(latitude:)` (so a test can
/// tell which URL an image came from), after a delay of 0...`maximumDelay` ms.
/// A gated renderer lets a render through only for a permit (`allow(_:)`).
final class ColorMapRenderer: Renderer {
    let renders = Atomic<Int>(0)
    let cancellationsSeen = Atomic<Int>(0)
    /// Latitudes in the order renders started.
    let started = Mutex<[Double]>([])
    private let permits: Atomic<Int>
    private let maximumDelay: Int
    private let realMap: MapSnapshotRenderer?

    init(gated: Bool = false, maximumDelay: Int = 0, realMap: Bool = false) {
        permits = Atomic(gated ? 0 : Int.max / 2)
        self.maximumDelay = maximumDelay
        self.realMap = realMap ? MapSnapshotRenderer() : nil
    }

    /// Lets every held and later render go on.
    func openGate() { permits.store(Int.max / 2, ordering: .releasing) }

    /// Lets `count` more renders go on.
    func allow(_ count: Int) { permits.add(count, ordering: .releasing) }

    /// Takes a permit if there is one.
    private func takePermit() -> Bool {
        var available = permits.load(ordering: .acquiring)
        while available > 0 {
            let (exchanged, original) = permits.compareExchange(expected: available, desired: available - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            available = original
        }
        return false
    }

    func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
        let cancellation = context.cancellation
        renders.add(1, ordering: .relaxed)
        let latitude = request.options.camera.centerLatitude
        started.withLock { $0.append(latitude) }
        let delay = maximumDelay == 0 ? 0 : Int.random(in: 0...maximumDelay)
        var waited = 0
        var permitted = false
        while waited < delay || !permitted {
            if !permitted { permitted = takePermit() }
            if cancellation.isCancelled {
                cancellationsSeen.add(1, ordering: .relaxed)
                throw CancellationError()
            }
            usleep(1000)
            waited += 1
        }
        if let realMap { return try realMap.render(request, in: context) }
        let options = request.options
        let bitmap = try Bitmap(width: options.pixelWidth, height: options.pixelHeight, fill: Self.color(latitude: latitude))
        return RenderedImage(data: try PNGEncoder().encode(bitmap), mimeType: "image/png")
    }

    /// The fill colour for a map centred at `latitude` (whole hundredths of a degree, 0..<65536).
    static func color(latitude: Double) -> RGBA {
        let id = Int((latitude * 100).rounded())
        return RGBA(UInt8(id & 0xFF), UInt8(id >> 8 & 0xFF), 200)
    }

    /// `map://` centred on latitude `id`/100, `points` square at scale 1.
    static func url(_ id: Int, points: Int = 16) -> URL {
        URL(string: "map://?latitude=\(Double(id) / 100)&longitude=10&zoom=3&width=\(points)&height=\(points)")!
    }
}

extension MapCamera {
    /// The centre's latitude (0 when the camera fits markers without a centre).
    var centerLatitude: Double {
        switch self {
        case let .zoom(center, _), let .span(center, _, _): return center.latitude
        case let .fit(center, _): return center?.latitude ?? 0
        }
    }
}

extension XCTestCase {
    /// A loader over a new session with every URLSchemeKit scheme, a
    /// memory-only URL cache and HTTP cache (nothing under ~/.cache), and
    /// `renderer` drawing `map://` (the real one by default). When the test
    /// ends the loader is stopped and its session invalidated.
    func makeLoader(memoryCapacity: Int = 8 << 20, maximumConcurrentLoads: Int = 6,
                    urlCache: QueryKeyedURLCache? = QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0),
                    renderer: (any Renderer<MapURL>)? = nil) -> ImageLoader {
        var renderers = SchemeRenderers()
        if let renderer { renderers.set(renderer) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: urlCache, httpCache: HTTPCache(directory: nil), renderers: renderers))
        let session = URLSession(configuration: configuration)
        let loader = ImageLoader(configuration: .init(session: session,
                                                      memoryCache: DecodedImageCache(capacity: memoryCapacity),
                                                      maximumConcurrentLoads: maximumConcurrentLoads))
        addTeardownBlock {
            loader.invalidateAndCancel()
            session.invalidateAndCancel()   // the loader leaves the session it was lent to its lender
        }
        return loader
    }

    /// Polls `condition` every millisecond until it holds or `seconds` pass.
    func waitUntil(_ what: String, seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                   _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(what)", file: file, line: line)
                return
            }
            usleep(1000)
        }
    }
}

extension XCTestCase {
    /// `waitUntil` for async tests: sleeps without blocking a cooperative thread.
    func eventually(_ what: String, seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: () -> Bool) async {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(what)", file: file, line: line)
                return
            }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
