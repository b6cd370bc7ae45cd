import Foundation
import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
@testable import URLSchemeServer

/// Signed URLs (imgproxy's scheme) and entity tags that do not depend on the
/// instance, through real servers on loopback.
final class SignedURLTests: XCTestCase {
    /// imgproxy's documented example key and salt.
    private let keyHex = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    private let saltHex = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    private let target = "/map?latitude=59.9&longitude=30.3&zoom=4&width=120&height=80"
    /// Computed once with Python's `hmac` (`base64.urlsafe_b64encode(hmac.new(key, salt + target,
    /// hashlib.sha256).digest()).rstrip(b"=")`) for the key, salt and target above.
    private let pythonSignature = "Qk2oBmoCed2gEIt2O_Y3ur63RxpPV132XIFtG00XYKg"

    private func signing() throws -> URLSigning {
        let other = try URLSigning.hexList("00ff,abcdef", source: "test")
        return try URLSigning(keys: [other[0], try URLSigning.hexList(keyHex, source: "key")[0]],
                              salts: [other[1], try URLSigning.hexList(saltHex, source: "salt")[0]])
    }

    func testTheSignatureIsPythonsHMACOfSaltAndTarget() throws {
        let single = try URLSigning(keys: URLSigning.hexList(keyHex, source: "key"), salts: URLSigning.hexList(saltHex, source: "salt"))
        XCTAssertEqual(single.signature(of: target), pythonSignature)
        XCTAssertTrue(try signing().verifies(pythonSignature, target: target), "a rotated-out second pair still verifies")
        XCTAssertFalse(try signing().verifies(pythonSignature, target: target + "&scale=2"))
        XCTAssertFalse(try signing().verifies(String(pythonSignature.dropLast()), target: target))
    }

    func testKeysAndSaltsComeFromFlagsOrVariablesAndBadOnesAreNamed() throws {
        let fromVariables = try ServeOptions.configuration(arguments: [], environment: ["URLSCHEME_SIGNING_KEY": keyHex, "URLSCHEME_SIGNING_SALT": saltHex])
        XCTAssertEqual(fromVariables.signing?.signature(of: target), pythonSignature)
        let rotated = try ServeOptions.configuration(arguments: ["--signing-key", "00ff," + keyHex, "--signing-salt", "abcdef," + saltHex], environment: [:])
        XCTAssertEqual(rotated.signing?.verifies(pythonSignature, target: target), true)
        XCTAssertNil(try ServeOptions.configuration(arguments: [], environment: [:]).signing)
        let failures: [([String], [String: String], String)] = [
            (["--signing-key", keyHex], [:], "--signing-key needs --signing-salt (or URLSCHEME_SIGNING_SALT) too"),
            (["--signing-key", "xyz0", "--signing-salt", saltHex], [:], "--signing-key: value 1 is not hex digits"),
            (["--signing-key", "abc", "--signing-salt", saltHex], [:], "--signing-key: value 1 is not an even number (2 to 1024) of hex digits"),
            ([], ["URLSCHEME_SIGNING_KEY": keyHex + ",00", "URLSCHEME_SIGNING_SALT": saltHex],
             "URLSCHEME_SIGNING_KEY has 2 keys but URLSCHEME_SIGNING_SALT 1 salts: give one salt per key"),
        ]
        for (arguments, environment, message) in failures {
            XCTAssertThrowsError(try ServeOptions.configuration(arguments: arguments, environment: environment)) {
                XCTAssertEqual("\($0)", message)
            }
        }
    }

    func testWithAKeyOnlySignedRequestsAreAnsweredAndThoseImmutably() async throws {
        let signing = try signing()
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self) {
            $0.maxAge = 600
            $0.signing = signing
        }
        let open = try ServerFixture(environment: ServerFixture.environment(), test: self) { $0.maxAge = 600 }
        let (expected, _) = try await open.get(target)

        let (body, response) = try await fixture.get("/" + pythonSignature + target)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(body, expected, "the same answer as unsigned from a server without a key")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "public, max-age=600, immutable")
        let tag = try XCTUnwrap(response.value(forHTTPHeaderField: "ETag"))
        let (_, notModified) = try await fixture.get("/" + pythonSignature + target, headers: ["If-None-Match": tag])
        XCTAssertEqual(notModified.statusCode, 304)

        let refused = [
            target,  // unsigned
            "/" + pythonSignature + target + "&scale=2",  // another path
            "/" + String(pythonSignature.reversed()) + target,  // another signature
            "/" + pythonSignature + "/styles/x/static/24.9,60.2,10/64x64.png",  // a static map is signed too
            "/styles/x/static/24.9,60.2,10/64x64.png",
        ]
        for refusedTarget in refused {
            let (message, answer) = try await fixture.get(refusedTarget)
            XCTAssertEqual(answer.statusCode, 403, refusedTarget)
            XCTAssertEqual(answer.value(forHTTPHeaderField: "Cache-Control"), "no-store", refusedTarget)
            let text = String(decoding: message, as: UTF8.self)
            XCTAssertTrue(text.hasSuffix("\n") && text.dropLast().allSatisfy { $0 != "\n" }, "one line: \(text)")
        }
        let (health, _) = try await fixture.get("/health")
        XCTAssertEqual(String(decoding: health, as: UTF8.self), "ok\n", "operations need no signature")
        let (_, anySignature) = try await open.get("/insecure" + target)
        XCTAssertEqual(anySignature.statusCode, 200, "without a key a signature is ignored, as imgproxy does")
        XCTAssertEqual(anySignature.value(forHTTPHeaderField: "Cache-Control"), "public, max-age=600")
        let (_, dots) = try await open.get("/not.a.signature" + target)
        XCTAssertEqual(dots.statusCode, 404, "only base64url's characters make a signature")
    }

    func testInstancesWithTheSameFilesInOtherFoldersGiveTheSameETag() async throws {
        var photo = try Bitmap(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { photo[x, y] = RGBA(UInt8(x * 6), UInt8(y * 8), 60) } }
        // One store's files copied to a second folder, as instances deployed side by side hold them.
        let folders = (0..<2).map { _ in FileManager.default.temporaryDirectory.appendingPathComponent("etag-" + UUID().uuidString, isDirectory: true) }
        for folder in folders { addTeardownBlock { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createDirectory(at: folders[0], withIntermediateDirectories: true)
        let id = try FileAssetStore(directory: folders[0]).add(try PNGEncoder().encode(photo))
        try FileManager.default.copyItem(at: folders[0], to: folders[1])
        var tags: [String] = []
        for folder in folders {
            let store = try FileAssetStore(directory: folder)
            let fixture = try ServerFixture(environment: ServerFixture.environment(assets: AssetImageSource(store: store)), test: self)
            let (_, response) = try await fixture.get("/asset?width=32&id=\(id)")
            XCTAssertEqual(response.statusCode, 200)
            tags.append(try XCTUnwrap(response.value(forHTTPHeaderField: "ETag")))
        }
        XCTAssertEqual(tags[0], tags[1], "the tag names the URL, renderer and bytes, not the folder or the instance")
    }
}
