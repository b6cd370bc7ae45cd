import Foundation
import XCTest
import ImageCodecs
import Raster
import URLSchemeKit
@testable import URLSchemeServer

/// `format=auto` through a real loopback server: the client's `Accept` picks
/// the variant, those answers (and only those) say `Vary: Accept`, and each
/// variant has its own `ETag`.
final class AutoFormatServeTests: XCTestCase {
    func testAutoFormatFollowsTheClientsAcceptWithItsOwnTag() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-auto-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = try FileAssetStore(directory: directory)
        var photo = try Bitmap(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { photo[x, y] = RGBA(UInt8(x * 4), UInt8(y * 5), 90) } }
        let id = try store.add(PNGEncoder().encode(photo))
        let fixture = try ServerFixture(environment: ServerFixture.environment(assets: AssetImageSource(store: store)), test: self)
        let client = try fixture.client()
        let target = "/asset?id=\(id)&width=32&format=auto"

        func get(_ target: String, _ extra: String) throws -> RawHTTPClient.Answer {
            client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
            return try XCTUnwrap(client.readAnswer())
        }
        let webP = try get(target, "Accept: image/avif,image/webp,*/*;q=0.8\r\n")
        let plain = try get(target, "Accept: image/png,*/*;q=0.5\r\n")
        let none = try get(target, "")
        XCTAssertEqual([webP, plain, none].map(\.status), [200, 200, 200])
        XCTAssertEqual(webP.headers["content-type"], "image/webp")
        XCTAssertEqual(plain.headers["content-type"], "image/jpeg", "the scheme's own choice for an opaque photo")
        XCTAssertEqual(none.headers["content-type"], "image/jpeg", "no Accept: the server environment's default")
        XCTAssertEqual(webP.body.prefix(4), Data("RIFF".utf8))
        XCTAssertEqual([webP, plain, none].map { $0.headers["vary"] }, ["Accept", "Accept", "Accept"])
        let webPTag = try XCTUnwrap(webP.headers["etag"]), plainTag = try XCTUnwrap(plain.headers["etag"])
        XCTAssertNotEqual(webPTag, plainTag, "each variant has its own tag")
        XCTAssertEqual(plainTag, none.headers["etag"], "the same variant, the same tag")

        let revalidated = try get(target, "Accept: image/webp\r\nIf-None-Match: \(webPTag)\r\n")
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertEqual(revalidated.headers["vary"], "Accept")
        let otherVariant = try get(target, "Accept: image/jpeg\r\nIf-None-Match: \(webPTag)\r\n")
        XCTAssertEqual(otherVariant.status, 200, "the WebP tag does not validate the JPEG variant")
        XCTAssertEqual(otherVariant.headers["content-type"], "image/jpeg")

        let explicit = try get("/asset?id=\(id)&width=32&format=webp", "Accept: image/webp\r\n")
        XCTAssertEqual(explicit.headers["content-type"], "image/webp")
        XCTAssertNil(explicit.headers["vary"], "only format=auto answers vary")
    }
}
