import XCTest
import ImageCodecs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `format=auto` (docs/image-formats.md): WebP for a request that accepts it,
/// the scheme's own format otherwise, `Vary: Accept`, and each variant cached apart.
final class FormatNegotiationTests: XCTestCase {
    func testAcceptFieldsAreReadWithTheirQualities() {
        let cases: [(String, Bool)] = [
            ("image/webp", true), ("image/avif,image/webp,*/*", true), ("image/*", true), ("IMAGE/WEBP ; q=0.5", true),
            ("*/*", false), ("image/png,image/jpeg", false), ("", false), ("image/webp;q=0", false),
            ("image/webp;q=0, image/*", false), ("image/*;q=0.8, image/webp;q=0", false), ("image/*;q=0", false),
            ("image/webp;q=banana", false), ("image/*;level=1;q=0.3", true), ("image/webpx, image/png", false),
        ]
        for (accept, expected) in cases {
            XCTAssertEqual(FormatNegotiation.acceptsWebP(accept), expected, accept)
        }
    }

    func testResolvingKeepsEveryOtherItemAsWritten() throws {
        let url = try XCTUnwrap(URL(string: "asset://?id=a%2Bb&format=AUTO&lossless=true&quality=60"))
        XCTAssertEqual(FormatNegotiation.resolve(url, accept: "image/webp", prefersWebP: false)?.absoluteString,
                       "asset://?id=a%2Bb&format=webp&lossless=true&quality=60")
        XCTAssertEqual(FormatNegotiation.resolve(url, accept: "image/png", prefersWebP: true)?.absoluteString,
                       "asset://?id=a%2Bb&quality=60", "lossless applies to the WebP answer only")
        XCTAssertEqual(FormatNegotiation.resolve(url, accept: nil, prefersWebP: true)?.absoluteString,
                       "asset://?id=a%2Bb&format=webp&lossless=true&quality=60")
        XCTAssertNil(FormatNegotiation.resolve(try XCTUnwrap(URL(string: "asset://?id=a&format=png")), accept: "image/webp", prefersWebP: true))
    }

    /// Two requests for one URL differing only in `Accept`, through a real
    /// session, in an order that makes each hit the other's cached answer if
    /// the variants were not kept apart.
    func testTwoRequestsDifferingOnlyInAcceptGetTheirOwnVariants() async throws {
        let (store, source) = try makeAssetStore()
        let photo = try store.add(AssetFixtures.data("photo.jpg")), logo = try store.add(AssetFixtures.data("logo.png"))
        let session = makeSchemeSession(source)
        let webP = "image/avif,image/webp,image/apng,*/*;q=0.8", plain = "image/png,image/jpeg;q=0.9,*/*;q=0.5"
        for round in 0..<2 {
            for (id, fallback) in [(photo, "image/jpeg"), (logo, "image/png")] {
                for (accept, expected) in [(webP, "image/webp"), (plain, fallback), ("image/webp;q=0,image/*", fallback), ("image/*;q=0.5", "image/webp")] {
                    let url = try XCTUnwrap(URL(string: "asset://?id=\(id)&width=48&format=auto&lossless=true"))
                    var request = URLRequest(url: url)
                    request.setValue(accept, forHTTPHeaderField: "Accept")
                    let (data, response) = try await session.data(for: request)
                    let http = try XCTUnwrap(response as? HTTPURLResponse)
                    let label = "round \(round), \(accept), \(id)"
                    XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Type"), expected, label)
                    XCTAssertEqual(Self.sniffedType(data), expected, label)
                    XCTAssertEqual(http.value(forHTTPHeaderField: "Vary"), "Accept", label)
                    XCTAssertEqual(http.url, url, "the answer is addressed to the URL asked")
                    let image = try AssetFixtures.decode(data, mimeType: expected)
                    XCTAssertEqual(image.width, 48, label)
                }
            }
        }
        let (_, explicit) = try await session.data(from: XCTUnwrap(URL(string: "asset://?id=\(photo)&width=48&format=webp")))
        XCTAssertNil((explicit as? HTTPURLResponse)?.value(forHTTPHeaderField: "Vary"), "only format=auto answers vary")
    }

    /// Without an `Accept` field the environment's preference decides; `poll://` (PNG by default) negotiates too.
    func testARequestWithoutAcceptFollowsTheEnvironment() async throws {
        let poll = try PollURL(question: "Lunch?", options: ["Soup", "Salad"], votes: [3, 1])
        let url = try XCTUnwrap(URL(string: poll.url.absoluteString + "&format=auto"))
        for prefersWebP in [false, true] {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(URLSchemeKitEnvironment { environment in
                environment.imageCache = QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0)
                environment.httpCache = nil
                environment.autoFormatPrefersWebP = prefersWebP
            })
            let session = URLSession(configuration: configuration)
            defer { session.invalidateAndCancel() }
            let (data, response) = try await session.data(from: url)
            XCTAssertEqual(response.mimeType, prefersWebP ? "image/webp" : "image/png")
            XCTAssertEqual(Self.sniffedType(data), response.mimeType)
        }
    }

    /// `ImageLoader` asks with the formats it decodes, WebP among them, so `format=auto` loads WebP through it.
    func testImageLoaderAcceptsWebP() {
        XCTAssertTrue(FormatNegotiation.acceptsWebP(ImageLoader.acceptedTypes))
    }

    /// An origin that negotiates (`Vary: Accept`), through the HTTP cache and a
    /// real session: the WebP answer is reused for the same `Accept` only.
    func testTheHTTPCacheKeepsAnOriginsAcceptVariantsApart() async throws {
        let origin = try OriginServer(test: self)
        try origin.route("/negotiated", headers: ["Cache-Control": "max-age=3600", "Vary": "Accept", "Content-Type": "image/webp"], body: "webp")
        let session = makeCachedSession(HTTPCache(directory: nil))
        var counts: [Int] = []
        for accept in ["image/webp,*/*", "image/webp,*/*", "image/png,*/*"] {
            var request = URLRequest(url: origin.url("/negotiated"))
            request.setValue(accept, forHTTPHeaderField: "Accept")
            _ = try await session.data(for: request)
            counts.append(try origin.count("/negotiated"))
        }
        XCTAssertEqual(counts, [1, 1, 2], "the same Accept is a hit; another Accept goes to the origin")
    }

    /// The type the body's signature says it is (so a wrong `Content-Type` cannot pass).
    private static func sniffedType(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if bytes.count == 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x45, 0x42, 0x50] { return "image/webp" }
        return "unknown"
    }
}
