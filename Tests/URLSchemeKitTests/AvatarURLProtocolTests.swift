import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `avatar://` through a real URLSession over a `FileAssetStore` on disk.
final class AvatarURLProtocolTests: XCTestCase {
    private let red = RGBA(220, 30, 30), green = RGBA(30, 200, 60), blue = RGBA(40, 60, 220), yellow = RGBA(240, 220, 20)

    /// Stores a photo of `width` × `height` in one colour (PNG, so colours are exact).
    private func add(_ store: FileAssetStore, _ color: RGBA, width: Int = 60, height: Int = 40) throws -> String {
        try store.add(PNGEncoder().encode(Bitmap(width: width, height: height, fill: color)))
    }

    private func assertColor(_ image: Bitmap, _ x: Int, _ y: Int, _ color: RGBA, file: StaticString = #filePath, line: UInt = #line) {
        let pixel = image[x, y]
        let distance = [Int(pixel.r) - Int(color.r), Int(pixel.g) - Int(color.g), Int(pixel.b) - Int(color.b)].map(abs).max() ?? 0
        XCTAssertTrue(distance <= 2 && pixel.a == 255, "(\(x), \(y)) is \(pixel), expected \(color)", file: file, line: line)
    }

    func testOneToFourParticipantsAreLaidOutWithAGap() async throws {
        let (store, source) = try makeAssetStore()
        let ids = try [red, green, blue, yellow].map { try add(store, $0) }
        let session = makeSchemeSession(source)
        let size = 64, gap = AvatarLayout.gap(forSize: size)  // tiles 0..<31 and 32..<64 (gap 1)
        XCTAssertEqual(gap, 1)

        let (one, _) = try await loadImage(session, "avatar://?id=\(ids[0])&size=64&shape=square&format=png")
        assertColor(one, 0, 0, red)
        assertColor(one, 63, 63, red)

        let (two, _) = try await loadImage(session, "avatar://?id=\(ids[0])&id=\(ids[1])&size=64&shape=square&format=png")
        assertColor(two, 10, 5, red)
        assertColor(two, 10, 60, red)
        assertColor(two, 50, 5, green)
        XCTAssertEqual(two[31, 30].a, 0, "the gap is transparent")

        let (three, _) = try await loadImage(session, "avatar://?\(ids.prefix(3).map { "id=\($0)" }.joined(separator: "&"))&size=64&shape=square&format=png")
        assertColor(three, 10, 60, red)
        assertColor(three, 50, 10, green)
        assertColor(three, 50, 50, blue)
        XCTAssertEqual(three[50, 31].a, 0, "the gap between the right quarters is transparent")

        let (four, _) = try await loadImage(session, "avatar://?\(ids.map { "id=\($0)" }.joined(separator: "&"))&size=64&shape=square&format=png")
        assertColor(four, 10, 10, red)
        assertColor(four, 50, 10, green)
        assertColor(four, 10, 50, blue)
        assertColor(four, 50, 50, yellow)
        XCTAssertEqual([four.width, four.height], [64, 64])
    }

    /// A tile is centre-cropped to fill: of a wide photo in three vertical
    /// stripes, a square tile shows the middle one only.
    func testTilesAreCentreCroppedToFill() async throws {
        let (store, source) = try makeAssetStore()
        var stripes = try Bitmap(width: 90, height: 30)
        for y in 0..<30 { for x in 0..<90 { stripes[x, y] = x < 30 ? red : x < 60 ? green : blue } }
        let id = try store.add(PNGEncoder().encode(stripes))
        let (image, _) = try await loadImage(makeSchemeSession(source), "avatar://?id=\(id)&size=32&shape=square&format=png")
        assertColor(image, 5, 16, green)
        assertColor(image, 26, 16, green)
    }

    func testACircleIsAntiAliasedAndTransparentOutsideSoPNG() async throws {
        let (store, source) = try makeAssetStore()
        let id = try add(store, blue)
        let (image, type) = try await loadImage(makeSchemeSession(source), "avatar://?id=\(id)&size=100")
        XCTAssertEqual(type, "image/png")
        XCTAssertEqual(image[0, 0].a, 0)
        XCTAssertEqual(image[99, 99].a, 0)
        assertColor(image, 50, 50, blue)
        let partial = (0..<100).map { image[$0, 50].a }.filter { $0 > 0 && $0 < 255 }
        XCTAssertFalse(partial.isEmpty, "the circle's edge should be anti-aliased")
        let (square, squareType) = try await loadImage(makeSchemeSession(source), "avatar://?id=\(id)&size=100&shape=square")
        XCTAssertEqual(squareType, "image/jpeg")
        XCTAssertTrue(square.isOpaque)
    }

    func testAMissingParticipantIsAGreyTileAndNoneAtAllIsAnError() async throws {
        let (store, source) = try makeAssetStore()
        let present = try add(store, red)
        let missing = "abcdefghijklmnopqrstuvwxyz"
        let session = makeSchemeSession(source)
        let (image, _) = try await loadImage(session, "avatar://?id=\(present)&id=\(missing)&size=64&shape=square&format=png")
        assertColor(image, 10, 30, red)
        assertColor(image, 50, 30, AvatarRenderer.placeholderColor)

        let error = await loadError(session, "avatar://?id=\(missing)&id=\(missing)")
        XCTAssertEqual(error?.code, .fileDoesNotExist)
        XCTAssertTrue(error?.localizedDescription.contains(missing) == true, "\(String(describing: error))")
    }

    func testBadAvatarURLsNameTheParameter() async throws {
        let (store, source) = try makeAssetStore()
        let id = try add(store, red)
        let session = makeSchemeSession(source)
        let cases = [("avatar://?\(Array(repeating: "id=\(id)", count: 5).joined(separator: "&"))", "at most 4 participants"),
                     ("avatar://?size=64", "'id'"), ("avatar://?id=\(id)&size=8", "'size'"),
                     ("avatar://?id=\(id)&format=jpeg", "'format'"), ("avatar://?id=../x", "'id'")]
        for (url, phrase) in cases {
            let error = await loadError(session, url)
            XCTAssertEqual(error?.code, .badURL, url)
            XCTAssertTrue(error?.localizedDescription.contains(phrase) == true, "\(url): \(String(describing: error))")
        }
    }

    /// A big photo as a small tile decodes at a reduced JPEG scale, shared
    /// with `asset://` through one decoded-image cache.
    func testTilesDecodeLessAndShareTheAssetCache() async throws {
        let (store, source) = try makeAssetStore()
        let photo = try JPEGEncoder(quality: 80).encode(Bitmap(width: 800, height: 600, fill: green))
        let id = try store.add(photo)
        let session = makeSchemeSession(source)
        _ = try await loadImage(session, "avatar://?id=\(id)&size=64")
        XCTAssertEqual(source.cache.totalBytes, 100 * 75 * 4, "a 64-pixel tile of an 800×600 photo decodes at 1/8")
        _ = try await loadImage(session, "asset://?id=\(id)&width=40")
        XCTAssertEqual(source.cache.statistics, .init(hits: 1, decodes: 1))
    }

    /// One decode per photo per render: four members of one photo the
    /// decoded-image cache cannot keep (its capacity is below the photo's
    /// size) are one decode, not four.
    func testTheSamePhotoInEveryTileIsDecodedOnce() async throws {
        let store = try FileAssetStore(directory: makeTemporaryDirectory())
        let source = AssetImageSource(store: store, cache: DecodedImageCache(capacity: 1_000))
        let id = try add(store, green, width: 300, height: 300)
        let session = makeSchemeSession(source)
        let (image, _) = try await loadImage(session, "avatar://?id=\(id)&id=\(id)&id=\(id)&id=\(id)&size=64&shape=square&format=png")
        assertColor(image, 10, 10, green)
        assertColor(image, 50, 50, green)
        XCTAssertEqual(source.cache.statistics.decodes, 1)
    }

    /// A GIF of a 64-megapixel screen (35 bytes: one pixel drawn) as four
    /// small tiles: its first frame is composited at 1/8 scale (a 1000×1000
    /// canvas the cache keeps), not at 8000×8000 (256 MB, which it cannot).
    func testAGIFOfAHugeScreenIsCompositedAtTheTilesScale() async throws {
        let (store, source) = try makeAssetStore()
        let id = try store.add(HostileAnimations.gifOfAHugeScreen())
        let session = makeSchemeSession(source)
        let started = Date()
        let (image, _) = try await loadImage(session, "avatar://?id=\(id)&id=\(id)&id=\(id)&id=\(id)&size=256&shape=square&format=png")
        XCTAssertEqual([image.width, image.height], [256, 256])
        XCTAssertEqual(source.cache.statistics.decodes, 1)
        XCTAssertEqual(source.cache.totalBytes, 1000 * 1000 * 4)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
