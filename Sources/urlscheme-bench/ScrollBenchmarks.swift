import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageCodecs
import MapRendering
import URLSchemeKit

/// Issue 16's goals: the seed app's scrolling list through `ImageLoader` and
/// `ImageSlot`. 2,000 rows, each a `map://` snapshot (120×120 points @2x) and
/// an `avatar://` of 1–4 participants; a viewport of 8 rows scrolled at 30 rows
/// per second, prefetching 16 rows ahead. Reports the share of rows whose two
/// images were in memory when the row entered the viewport (goal ≥ 95 %),
/// renders started against renders used (goal ≤ 10 % wasted), stale
/// deliveries (goal 0) and peak memory; then a memory hit through the loader
/// against a cached load through URLSession alone (goal ≤ 0.2×).
struct ScrollBenchmarks: BenchmarkSuite {
    let name = "scroll"
    let summary = "2,000-row list of map:// + avatar:// scrolled at 30 rows/s via ImageLoader/ImageSlot; memory hit vs cached URLSession load"

    static let rowCount = 2_000
    static let viewportRows = 8
    static let rowsPerSecond = 30.0
    static let prefetchRows = 16
    static let photoCount = 40
    static let mapSize = ImageTargetSize(width: 240, height: 240)
    static let avatarSize = ImageTargetSize(width: 160, height: 160)

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let storeDirectory = context.workDirectory.appendingPathComponent("scroll-assets")
        try? FileManager.default.removeItem(at: storeDirectory)
        let store = try FileAssetStore(directory: storeDirectory)
        var ids: [String] = []
        for i in 0..<Self.photoCount {
            let photo = try BenchmarkImages.photo(width: 640 + 8 * i, height: 480)
            ids.append(try store.add(JPEGEncoder(quality: 85).encode(photo)))
        }
        // One budget for every decoded image: the photos avatars are made of and the loader's images.
        let source = AssetImageSource(store: store, cache: DecodedImageCache(capacity: ImageLoader.Configuration.defaultMemoryCapacity))
        let maps = CountingRenderer(MapSnapshotRenderer())
        let avatars = CountingRenderer(AvatarRenderer())
        var renderers = SchemeRenderers()
        renderers.set(maps)
        renderers.set(avatars)

        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(assets: source, imageCache: QueryKeyedURLCache(memoryCapacity: 64 << 20, diskCapacity: 0),
                                                                  renderers: renderers))
        let session = URLSession(configuration: configuration)
        let loader = ImageLoader(configuration: .init(session: session, memoryCache: source.cache))
        defer {
            loader.invalidateAndCancel()
            session.invalidateAndCancel()
        }

        let rows = try (0..<Self.rowCount).map { try Row(index: $0, photoIDs: ids) }
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)  // reset VmHWM
        let outcome = ScrollSimulation(rows: rows, loader: loader).run()
        let peak = MapBenchmarks.peakResidentMemory()
        let started = maps.started.load(ordering: .relaxed) + avatars.started.load(ordering: .relaxed)
        let cancelled = maps.cancelled.load(ordering: .relaxed) + avatars.cancelled.load(ordering: .relaxed)
        let used = outcome.displayedURLs
        let wasted = Double(max(0, started - used)) / Double(max(1, started))
        let ready = Double(outcome.readyRows) / Double(Self.rowCount)
        let statistics = loader.statistics
        var result: [BenchmarkRow] = []
        result.append(BenchmarkRow(
            name: "scroll 2,000 rows at 30 rows/s, prefetch 16 ahead (wall time)", ours: outcome.seconds, reference: nil,
            referenceName: "–", goal: nil,
            detail: String(format: "ready on entry %.1f %% (goal ≥ 95 %%) %@; renders %d started / %d used, %.1f %% wasted (goal ≤ 10 %%) %@, %d cancelled; "
                           + "stale deliveries %d (goal 0) %@; peak RSS %@, decoded images (photos + loader) peak %.1f MiB; "
                           + "loader: %d session loads, %d joins, %d memory hits, %d decodes, %d cancellations; photo decodes %d",
                           ready * 100, ready >= 0.95 ? "✓" : "✗", started, used, wasted * 100, wasted <= 0.10 ? "✓" : "✗", cancelled,
                           outcome.stale, outcome.stale == 0 ? "✓" : "✗", peak, Double(outcome.peakMemoryCacheBytes) / 1_048_576,
                           statistics.sessionLoads, statistics.joins, statistics.memoryHits, statistics.decodes, statistics.cancellations,
                           source.cache.statistics.decodes)))
        // The first screen is never ready (nothing was prefetched before it); list the others.
        let late = outcome.lateRows.filter { $0.row >= Self.viewportRows }
        if !late.isEmpty {
            result[0].detail += "; late rows after the first screen (missing): " + late.prefix(12).map { "\($0.row) (\($0.missing))" }.joined(separator: ", ")
        }
        result.append(try memoryHitAgainstCachedLoad(loader: loader, url: rows[0].mapURL, context: context))
        return result
    }

    /// The same image asked for repeatedly: from the loader's memory, and as
    /// bytes from the session's `QueryKeyedURLCache` (no decode).
    private func memoryHitAgainstCachedLoad(loader: ImageLoader, url: URL, context: BenchmarkContext) throws -> BenchmarkRow {
        let calls = 2_000
        let session = loader.configuration.session
        _ = try Self.await { try await loader.image(for: url, size: Self.mapSize) }
        _ = try MapBenchmarks.load(url, session)
        var hitTime = 0.0, cachedTime = 0.0
        for _ in 0..<max(3, context.iterations / 2) {
            hitTime += try Stopwatch.median(iterations: 1) {
                try Self.await { for _ in 0..<calls { _ = try await loader.image(for: url, size: Self.mapSize) } }
            }
            cachedTime += try Stopwatch.median(iterations: 1) {
                try Self.await { for _ in 0..<calls { _ = try await session.data(from: url) } }
            }
        }
        let rounds = Double(max(3, context.iterations / 2)) * Double(calls)
        return BenchmarkRow(name: "memory hit via ImageLoader.image(for:size:) vs cached load via URLSession.data(from:) (per call)",
                            ours: hitTime / rounds, reference: cachedTime / rounds, referenceName: "URLSession + QueryKeyedURLCache",
                            goal: 0.2, detail: String(format: "%.2f µs vs %.2f µs; map:// 240×240, %d sequential awaits per round",
                                                     hitTime / rounds * 1e6, cachedTime / rounds * 1e6, calls))
    }

    /// Runs `body` in a Task and waits for it on this (non-cooperative) thread.
    static func await<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }!.get()
    }

    /// One list row's two image URLs.
    struct Row {
        let mapURL: URL
        let avatarURL: URL

        init(index: Int, photoIDs: [String]) throws {
            // Spread over the inhabited latitudes and all longitudes, at city-to-country zooms.
            let center = GeoCoordinate(latitude: -50 + Double(index * 37 % 1_100) / 10, longitude: -180 + Double(index * 73 % 3_600) / 10)
            let zoom = 3 + Double(index % 5)
            mapURL = try MapURL(options: MapSnapshotOptions(camera: .zoom(center: center, zoom: zoom), width: 120, height: 120, scale: 2),
                            format: .jpeg).url
            // A different chat on every row: 1–4 distinct participants picked by a hash of the row.
            var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
            var ids: [String] = []
            while ids.count < 1 + index % 4 {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let id = photoIDs[Int(state % UInt64(photoIDs.count))]
                if !ids.contains(id) { ids.append(id) }
            }
            avatarURL = try AvatarURL(ids: ids, size: 160, shape: .circle).url
        }
    }
}

/// Wraps a scheme's renderer, counting renders started and cancelled.
final class CountingRenderer<Request: Sendable>: Renderer {
    let base: any Renderer<Request>
    let started = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)

    init(_ base: any Renderer<Request>) {
        self.base = base
    }

    var version: String { base.version }

    func render(_ request: Request, in context: RenderContext) throws -> RenderedImage {
        started.add(1, ordering: .relaxed)
        do {
            return try base.render(request, in: context)
        } catch {
            if context.cancellation.isCancelled { cancelled.add(1, ordering: .relaxed) }
            throw error
        }
    }
}
