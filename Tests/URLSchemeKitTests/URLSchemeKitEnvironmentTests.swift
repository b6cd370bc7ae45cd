import XCTest
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// Two sessions in one process, each with an environment of its own, see only
/// their own store, budget, tile sources and cached answers; nothing here
/// changes anything process-wide.
final class URLSchemeKitEnvironmentTests: XCTestCase {
    private func session(_ environment: URLSchemeKitEnvironment) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }

    private func photo(_ color: RGBA) throws -> Data {
        try PNGEncoder().encode(Bitmap(width: 40, height: 30, fill: color))
    }

    /// A directory of the four zoom-1 tiles, all one colour.
    private func tiles(_ color: RGBA) throws -> URL {
        let root = try makeTemporaryDirectory()
        for x in 0...1 {
            let folder = root.appendingPathComponent("1/\(x)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for y in 0...1 { try PNGEncoder().encode(Bitmap(width: 256, height: 256, fill: color)).write(to: folder.appendingPathComponent("\(y).png")) }
        }
        return root
    }

    func testTwoSessionsSeeOnlyTheirOwnStoresBudgetsAndTileSources() async throws {
        let (storeA, sourceA) = try makeAssetStore()
        let (_, sourceB) = try makeAssetStore()
        let id = try storeA.add(photo(RGBA(200, 10, 10)))
        var tight = ResourceBudget()
        tight.pathPoints = 2
        var sources = MapTileSources()
        sources.register("t", TileSource(loader: DirectoryTileLoader(directory: try tiles(RGBA(0, 90, 0))), attribution: ""))
        // One image cache for both: the partitions keep their answers apart.
        let shared = ImageURLCache(memoryCapacity: 8 << 20, diskCapacity: 0)
        let a = session(URLSchemeKitEnvironment(assets: sourceA, budget: tight, tileSources: sources, imageCache: shared, httpCache: nil))
        let b = session(URLSchemeKitEnvironment(assets: sourceB, imageCache: shared, httpCache: nil))

        let asset = "asset://?id=\(id)&width=20&format=png"
        let (image, _) = try await loadImage(a, asset)
        XCTAssertEqual(image[5, 5], RGBA(200, 10, 10))
        let missing = await loadError(b, asset)
        XCTAssertEqual(missing?.code, .fileDoesNotExist, "a photo added to A's store is unknown to B, though A's answer is cached")
        XCTAssertTrue(missing?.localizedDescription.contains("no asset with id '\(id)'") == true, missing?.localizedDescription ?? "")

        let path = "map://?path=1,2,3,4,5,6&width=32&height=32"
        XCTAssertNoThrow(try MapURL(url: XCTUnwrap(URL(string: path))), "parsing a URL checks no budget")
        let refused = await loadError(a, path)
        XCTAssertEqual(refused?.code, .badURL)
        XCTAssertTrue(refused?.localizedDescription.hasSuffix("has 3 points in all; at most 2 (ResourceBudget.pathPoints)") == true,
                      refused?.localizedDescription ?? "")
        let (drawn, _) = try await loadImage(b, path)
        XCTAssertEqual(drawn.width, 32, "A's lowered budget does not refuse B's URL")

        let tiled = "map://?latitude=0&longitude=0&zoom=1&width=64&height=64&tiles=t"
        let (map, _) = try await loadImage(a, tiled)
        XCTAssertEqual(map[10, 10], RGBA(0, 90, 0))
        let unknown = await loadError(b, tiled)
        XCTAssertEqual(unknown?.code, .badURL)
        XCTAssertTrue(unknown?.localizedDescription.contains("names no registered tile source 't'; registered: none") == true,
                      unknown?.localizedDescription ?? "")
    }

    /// The same asset id in two tenants' stores: each session is answered
    /// from its own store, and neither from the other's cached answer, in
    /// memory or on disk, though both use one cache directory.
    func testTheSameURLDrawnFromTwoStoresNeverAnswersTheOtherTenant() async throws {
        let directory = try makeTemporaryDirectory()
        let id = "tenantphoto7"
        let sourceA = AssetImageSource(store: try OnePhotoStore(id: id, data: photo(RGBA(200, 10, 10))))
        let sourceB = AssetImageSource(store: try OnePhotoStore(id: id, data: photo(RGBA(10, 10, 200))))
        let url = "asset://?id=\(id)&width=20&format=png"
        for round in 0..<2 {
            // Round 1: new cache instances on the same directory, so answers come from disk.
            let cache = ImageURLCache(memoryCapacity: 8 << 20, diskCapacity: 8 << 20, directory: directory)
            let a = session(URLSchemeKitEnvironment(assets: sourceA, imageCache: cache, httpCache: nil, cachePartition: "tenant-a"))
            let b = session(URLSchemeKitEnvironment(assets: sourceB, imageCache: cache, httpCache: nil, cachePartition: "tenant-b"))
            let (fromA, _) = try await loadImage(a, url)
            let (fromB, _) = try await loadImage(b, url)
            XCTAssertEqual(fromA[5, 5], RGBA(200, 10, 10), "round \(round)")
            XCTAssertEqual(fromB[5, 5], RGBA(10, 10, 200), "round \(round)")
            cache.flush()
        }
        XCTAssertEqual(sourceA.cache.statistics.decodes, 1, "A's second round came from the disk cache")
        XCTAssertEqual(sourceB.cache.statistics.decodes, 1, "B's second round came from the disk cache")
    }

    /// A store of one photo under a chosen id (two tenants may use the same ids).
    struct OnePhotoStore: AssetStore {
        let id: String
        let data: Data
        let info: ImageInfo

        init(id: String, data: Data) throws {
            self.id = id
            self.data = data
            info = try FileAssetStore.checkImage(data)
        }

        func add(_ data: Data) throws -> String { throw AssetStoreError.unreadableImage("read-only") }
        func data(for id: String) throws -> Data {
            guard id == self.id else { throw AssetStoreError.notFound(id) }
            return data
        }
        func metadata(for id: String) throws -> AssetMetadata {
            guard id == self.id else { throw AssetStoreError.notFound(id) }
            return AssetMetadata(id: id, byteCount: data.count, format: info.format, width: info.width, height: info.height,
                                 orientation: info.orientation, added: Date(), checksum: nil)
        }
        func remove(_ id: String) throws { throw AssetStoreError.notFound(id) }
        func list() throws -> [String] { [id] }
    }

    /// A pattern renderer that states a version.
    struct VersionedRenderer: Renderer {
        let version: String
        let base: PatternRenderer
        func render(_ request: PatternURL, in context: RenderContext) throws -> RenderedImage {
            try base.render(request, in: context)
        }
    }

    private func patternSession(_ cache: ImageURLCache, _ renderer: VersionedRenderer) -> URLSession {
        var renderers = SchemeRenderers()
        renderers.set(renderer)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: cache, httpCache: nil, renderers: renderers, cachePartition: "p"),
                                          extraProtocols: [PatternURLProtocol.self])
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }

    func testAfterARendererVersionChangeTheSameURLIsRenderedAgainInMemoryAndOnDisk() async throws {
        let directory = try makeTemporaryDirectory()
        let url = PatternURL(seed: 5, size: 100).url
        let memory = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0)
        let one = PatternRenderer(), two = PatternRenderer()
        for _ in 0..<2 { _ = try await patternSession(memory, VersionedRenderer(version: "1", base: one)).data(from: url) }
        XCTAssertEqual(one.renders.load(ordering: .relaxed), 1, "the same version answers from the cache")
        _ = try await patternSession(memory, VersionedRenderer(version: "2", base: two)).data(from: url)
        XCTAssertEqual(two.renders.load(ordering: .relaxed), 1, "a new version renders again")

        // Each new instance stands for a later process, after the earlier one flushed.
        var previous: ImageURLCache?
        let disk = { () -> ImageURLCache in
            previous?.flush()
            previous = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
            return previous!
        }
        let three = PatternRenderer(), again = PatternRenderer(), four = PatternRenderer()
        _ = try await patternSession(disk(), VersionedRenderer(version: "3", base: three)).data(from: url)
        _ = try await patternSession(disk(), VersionedRenderer(version: "3", base: again)).data(from: url)
        XCTAssertEqual(again.renders.load(ordering: .relaxed), 0, "a new cache on the directory finds version 3's file")
        let (data, _) = try await patternSession(disk(), VersionedRenderer(version: "4", base: four)).data(from: url)
        XCTAssertEqual(four.renders.load(ordering: .relaxed), 1, "version 4 does not take version 3's file")
        XCTAssertEqual(data, PatternURL(seed: 5, size: 100).expectedBytes)
    }

    /// Removing an asset through its environment purges its renditions from
    /// memory and disk: `asset://` is not answered any more, not even offline,
    /// and an avatar it was part of shows a grey tile in its place; the other
    /// photo's renditions stay.
    func testRemovingAnAssetPurgesItsRenditionsInMemoryAndOnDisk() async throws {
        let directory = try makeTemporaryDirectory()
        let (store, source) = try makeAssetStore()
        let red = RGBA(200, 10, 10), blue = RGBA(10, 10, 200)
        let gone = try store.add(photo(red)), kept = try store.add(photo(blue))
        let cache = ImageURLCache(memoryCapacity: 8 << 20, diskCapacity: 8 << 20, directory: directory)
        let environment = URLSchemeKitEnvironment(assets: source, imageCache: cache, httpCache: nil, cachePartition: "t")
        let live = session(environment)
        let thumbnail = "asset://?width=16&id=\(gone)&format=png", other = "asset://?id=\(kept)&width=16&format=png"
        let avatar = "avatar://?id=\(gone)&id=\(kept)&size=32&shape=square&format=png"
        for url in [thumbnail, other, avatar] { _ = try await loadImage(live, url) }
        cache.flush()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".uskcache") }.count, 3)

        try environment.removeAsset(gone)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".uskcache") }.count, 1,
                       "the two renditions that used the photo are deleted from disk")
        func offline(_ session: URLSession, _ url: String) async -> URLError? {
            do {
                _ = try await session.data(for: URLRequest(url: URL(string: url)!, cachePolicy: .returnCacheDataDontLoad))
                return nil
            } catch {
                return error as? URLError
            }
        }
        let restarted = session(URLSchemeKitEnvironment(assets: source, imageCache: ImageURLCache(memoryCapacity: 8 << 20, diskCapacity: 8 << 20, directory: directory),
                                                        httpCache: nil, cachePartition: "t"))
        for session in [live, restarted] {
            let thumbnailError = await offline(session, thumbnail), avatarError = await offline(session, avatar)
            XCTAssertEqual(thumbnailError?.code, .resourceUnavailable, "the removed photo's thumbnail is not cached")
            XCTAssertEqual(avatarError?.code, .resourceUnavailable, "nor is the avatar it was part of")
            let otherError = await offline(session, other)
            XCTAssertNil(otherError, "the other photo's rendition stays cached")
        }
        let stillThere = await loadError(live, thumbnail)
        XCTAssertEqual(stillThere?.code, .fileDoesNotExist)
        let (redrawn, _) = try await loadImage(live, avatar)
        XCTAssertEqual(redrawn[4, 16], AvatarRenderer.placeholderColor, "the removed member is a grey tile")
        XCTAssertEqual(redrawn[28, 16], blue)
    }
}
