import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `asset://` through a real URLSession, over a `FileAssetStore` on disk,
/// against results made with Pillow (`Fixtures/assets/make_asset_fixtures.py`).
final class AssetURLProtocolTests: XCTestCase {
    /// Adds every fixture source to a new store; returns ids by file name.
    private func storeFixtures() throws -> (ids: [String: String], source: AssetImageSource) {
        let (store, source) = try makeAssetStore()
        var ids: [String: String] = [:]
        for name in ["photo.jpg", "logo.png"] + (1...8).map({ "photo-o\($0).jpg" }) {
            ids[name] = try store.add(AssetFixtures.data(name))
        }
        return (ids, source)
    }

    /// Every edit, each EXIF orientation and a combination match Pillow.
    ///
    /// Tolerances (PSNR over premultiplied RGBA): our JPEG decode differs from
    /// libjpeg-turbo's by ≥ 45 dB, so pure pixel moves must reach 40 dB; edits
    /// that resample or blur differ in rounding and edge handling and must reach
    /// 34 dB; an arbitrary rotation is compared where both are opaque, since
    /// Pillow leaves its edges aliased and ours are anti-aliased; the thumbnail decodes at 1/4 scale (box-filtered blocks where
    /// Pillow decodes everything and applies Lanczos) and must reach 28 dB.
    func testEachEditAndEveryOrientationMatchPillow() async throws {
        let (ids, source) = try storeFixtures()
        let session = makeSchemeSession(source)
        let resampled: Set = ["rotate30", "blur", "sharpen", "fit", "fill", "stretch", "height", "combined", "logo-resize", "logo-blur"]
        for item in try AssetFixtures.cases() {
            let url = "asset://?id=\(try XCTUnwrap(ids[item.source]))&\(item.query)"
            let (image, _) = try await loadImage(session, url)
            let expected = try PNGDecoder().decode(AssetFixtures.data("expected/\(item.name).png"))
            XCTAssertEqual([image.width, image.height], [expected.width, expected.height], item.name)
            guard image.width == expected.width, image.height == expected.height else { continue }
            let floor = item.name == "thumbnail" ? 28.0 : resampled.contains(item.name) ? 34 : 40
            let psnr = AssetFixtures.psnr(image, expected, opaqueOnly: item.name == "rotate30")
            XCTAssertGreaterThanOrEqual(psnr, floor, "\(item.name): \(url)")
        }
    }

    func testTheDefaultFormatIsJPEGForOpaqueResultsAndPNGWhenAlphaMatters() async throws {
        let (ids, source) = try storeFixtures()
        let session = makeSchemeSession(source)
        let photo = try XCTUnwrap(ids["photo.jpg"]), logo = try XCTUnwrap(ids["logo.png"])
        let cases = [("asset://?id=\(photo)&width=40", "image/jpeg"), ("asset://?id=\(photo)&rotate=30", "image/png"),
                     ("asset://?id=\(logo)", "image/png"), ("asset://?id=\(logo)&format=jpeg&quality=70", "image/jpeg"),
                     ("asset://?id=\(photo)&format=png", "image/png")]
        for (url, mimeType) in cases {
            let (image, type) = try await loadImage(session, url)
            XCTAssertEqual(type, mimeType, url)
            if type == "image/jpeg" { XCTAssertTrue(image.isOpaque, url) }
        }
    }

    /// `format=webp&lossless=true` answers lossless WebP: the same pixels the PNG of the same edit holds, alpha included.
    func testLosslessWebPAnswersHoldThePNGsPixels() async throws {
        let (ids, source) = try storeFixtures()
        let session = makeSchemeSession(source)
        for query in ["id=\(try XCTUnwrap(ids["photo.jpg"]))&width=40&filter=sepia", "id=\(try XCTUnwrap(ids["logo.png"]))&rotate=30"] {
            let (webp, webpType) = try await loadImage(session, "asset://?\(query)&format=webp&lossless=true")
            let (png, _) = try await loadImage(session, "asset://?\(query)&format=png")
            XCTAssertEqual(webpType, "image/webp", query)
            XCTAssertTrue(webp == png, "\(query): the WebP answer is not the PNG's pixels")
        }
    }

    /// `format=webp` alone is lossy WebP (cwebp's q75 unless `quality` says
    /// otherwise): close to the PNG of the same edit, alpha exact, smaller at a lower quality.
    func testLossyWebPAnswersAreCloseToThePNGAndFollowTheQuality() async throws {
        let (ids, source) = try storeFixtures()
        let session = makeSchemeSession(source)
        for query in ["id=\(try XCTUnwrap(ids["photo.jpg"]))&width=120", "id=\(try XCTUnwrap(ids["logo.png"]))&rotate=30"] {
            let (data, response) = try await session.data(from: XCTUnwrap(URL(string: "asset://?\(query)&format=webp&quality=80")))
            XCTAssertEqual(response.mimeType, "image/webp", query)
            XCTAssertTrue(data.range(of: Data("VP8 ".utf8)) != nil, "\(query): no lossy VP8 chunk")
            let webp = try ImageDecoder.decode(data).bitmap
            let (png, _) = try await loadImage(session, "asset://?\(query)&format=png")
            // A logo's hard colour edges lose more to 4:2:0 chroma (cwebp -q 80: 18.5 dB on the unrotated logo, ours 18.2).
            XCTAssertGreaterThan(AssetFixtures.psnr(webp, png, opaqueOnly: true), query.contains("rotate") ? 21 : 30, query)
            XCTAssertEqual(stride(from: 3, to: webp.pixels.count, by: 4).map { webp.pixels[$0] },
                           stride(from: 3, to: png.pixels.count, by: 4).map { png.pixels[$0] }, "\(query): alpha differs")
            let (small, _) = try await session.data(from: XCTUnwrap(URL(string: "asset://?\(query)&format=webp&quality=20")))
            let (plain, _) = try await session.data(from: XCTUnwrap(URL(string: "asset://?\(query)&format=webp")))
            XCTAssertLessThan(small.count, plain.count, query)
            XCTAssertLessThan(plain.count, data.count, "\(query): q75 by default, below q80")
        }
    }

    func testASecondLoadIsServedByTheCacheWithoutDecoding() async throws {
        let (ids, source) = try storeFixtures()
        let session = makeSchemeSession(source)
        let url = "asset://?id=\(try XCTUnwrap(ids["photo.jpg"]))&width=48&filter=sepia"
        let (first, _) = try await loadImage(session, url)
        XCTAssertEqual(source.cache.statistics, .init(hits: 0, decodes: 1))
        let (second, _) = try await loadImage(session, url)
        XCTAssertEqual(second, first)
        XCTAssertEqual(source.cache.statistics, .init(hits: 0, decodes: 1), "the renderer ran again")
    }

    /// Sizes the held decode can serve never decode again; a 1/8 thumbnail
    /// decodes only 1/64 of the pixels.
    func testDifferentSizesDecodeTheSourceOnceAndThumbnailsDecodeLess() async throws {
        let (store, source) = try makeAssetStore()
        var big = try Bitmap(width: 512, height: 384)
        for y in 0..<384 { for x in 0..<512 { big[x, y] = RGBA(UInt8(x / 2), UInt8(y * 2 / 3), 128) } }
        let id = try store.add(JPEGEncoder(quality: 85).encode(big))
        let session = makeSchemeSession(source)
        for width in [400, 256, 100, 33] {
            let (image, _) = try await loadImage(session, "asset://?id=\(id)&width=\(width)")
            XCTAssertEqual([image.width, image.height], [width, Int((Double(width) * 0.75).rounded())])
        }
        XCTAssertEqual(source.cache.statistics, .init(hits: 3, decodes: 1))
        XCTAssertEqual(source.cache.totalBytes, 512 * 384 * 4)

        source.cache.removeAll()
        _ = try await loadImage(session, "asset://?id=\(id)&width=64")
        XCTAssertEqual(source.cache.totalBytes, 64 * 48 * 4, "a 64-pixel thumbnail should decode at 1/8 scale")
    }

    func testEditsOnAPNGWithAlphaKeepItsTransparency() async throws {
        let (ids, source) = try storeFixtures()
        let (image, type) = try await loadImage(makeSchemeSession(source), "asset://?id=\(try XCTUnwrap(ids["logo.png"]))&rotate=90&filter=grayscale")
        XCTAssertEqual(type, "image/png")
        XCTAssertEqual(image[0, 0].a, 0)
        XCTAssertEqual(image[20, 20].a, 255)
        XCTAssertEqual(image[20, 20].r, image[20, 20].g)
    }

    func testUnknownMalformedAndTraversingIDsAreRefused() async throws {
        let (store, source) = try makeAssetStore()
        let session = makeSchemeSession(source)
        let unknown = await loadError(session, "asset://?id=abcdefghijklmnopqrstuvwxyz")
        XCTAssertEqual(unknown?.code, .fileDoesNotExist)
        XCTAssertTrue(unknown?.localizedDescription.contains("no asset with id 'abcdefghijklmnopqrstuvwxyz'") == true, "\(String(describing: unknown))")
        for id in ["../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "a/b", ""] {
            let error = await loadError(session, "asset://?id=\(id)")
            XCTAssertEqual(error?.code, .badURL, id)
            XCTAssertTrue(error?.localizedDescription.contains("'id'") == true, "\(id): \(String(describing: error))")
        }
        let short = await loadError(session, "asset://?id=abc")
        XCTAssertEqual(short?.code, .badURL)
        XCTAssertTrue(short?.localizedDescription.contains("ids are 26 characters") == true, "\(String(describing: short))")
        XCTAssertEqual(try store.list(), [])
    }

    func testACorruptStoredFileIsAnErrorNotACrash() async throws {
        let (store, source) = try makeAssetStore()
        let photo = try AssetFixtures.data("photo.jpg")
        // The header survives, the scan data is cut short: the store refuses it.
        XCTAssertThrowsError(try store.add(photo.prefix(photo.count / 2))) { error in
            XCTAssertEqual(error as? AssetStoreError, .unreadableImage("JPEG data ends inside scan 1 (entropy-coded scan data)"))
        }
        // Stored files damaged on disk after they were added: bytes changed, the file cut short.
        let damaged = try store.add(photo)
        let file = store.directory.appendingPathComponent("\(damaged).asset")
        var bytes = try Data(contentsOf: file)
        for i in stride(from: bytes.count - 1500, to: bytes.count - 2, by: 7) { bytes[i] = 0xFF }
        try bytes.write(to: file)
        let truncated = try store.add(photo)
        let truncatedFile = store.directory.appendingPathComponent("\(truncated).asset")
        try Data(contentsOf: truncatedFile).prefix(1000).write(to: truncatedFile)
        // A store that checks only headers accepts the cut file; its load fails in the decoder.
        let lenient = try FileAssetStore(directory: store.directory, readInfo: { try ImageDecoder.readInfo($0) })
        let cut = try lenient.add(photo.prefix(photo.count / 2))

        let session = makeSchemeSession(source)
        for id in [damaged, truncated, cut] {
            source.cache.removeAll()
            let error = await loadError(session, "asset://?id=\(id)&width=32")
            XCTAssertEqual(error?.code, .cannotDecodeContentData, "\(String(describing: error))")
            XCTAssertTrue(error?.localizedDescription.contains(id) == true, "\(String(describing: error))")
        }
    }

    func testBadParametersNameTheParameter() async throws {
        let (ids, source) = try storeFixtures()
        let id = try XCTUnwrap(ids["photo.jpg"])
        let session = makeSchemeSession(source)
        let cases = [("crop=0.5,0.5,0,0.2", "'crop'"), ("crop=0.8,0,0.5,1", "'crop'"), ("filter=vintage", "'filter'"),
                     ("width=0", "'width'"), ("width=16000&height=16000&mode=stretch", "'width'"), ("rotate=abc", "'rotate'"),
                     ("lossless=true", "'lossless'"), ("format=png&lossless=true", "'lossless'"), ("format=webp&quality=0", "'quality'")]
        for (query, parameter) in cases {
            let error = await loadError(session, "asset://?id=\(id)&\(query)")
            XCTAssertEqual(error?.code, .badURL, query)
            XCTAssertTrue(error?.localizedDescription.contains(parameter) == true, "\(query): \(String(describing: error))")
        }
    }

    func testWithoutAStoreTheErrorSaysHowToConfigureOne() async throws {
        let error = await loadError(makeSchemeSession(), "asset://?id=abcdefghijklmnopqrstuvwxyz")
        XCTAssertEqual(error?.code, .resourceUnavailable)
        XCTAssertTrue(error?.localizedDescription.contains("URLSchemeKitEnvironment(assets:") == true, "\(String(describing: error))")
    }
}

/// GIF and WebP photos are stored and drawn like any other: `asset://` edits
/// the first frame, through a real session.
final class AssetWebFormatTests: XCTestCase {
    func testAWebPAndAnAnimatedGIFAreServedByAssetURLs() async throws {
        let (store, source) = try makeAssetStore()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(assets: source, imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                                  httpCache: nil))
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/assets")
        for name in ["alpha_color_cache.webp", "disposal_previous.gif"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let expected = try ImageDecoder.decode(data).bitmap
            let id = try store.add(data)
            let (image, mimeType) = try await loadImage(session, "asset://?id=\(id)&format=png")
            XCTAssertEqual(mimeType, "image/png", name)
            XCTAssertEqual(image, expected, "\(name): the first frame, pixel for pixel")
        }
    }
}
