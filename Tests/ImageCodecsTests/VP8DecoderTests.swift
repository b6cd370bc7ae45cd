import Foundation
import XCTest
@testable import ImageCodecs

/// The VP8 decoder against libwebp: libwebp's conformance vectors (`vp80-*`),
/// whose Y′CbCr planes (`dwebp -pgm`) and RGB (`dwebp -ppm`, fancy upsampling)
/// must match the MD5s of `libwebp_tests.md5` (libwebp-test-data, made by
/// `dwebp`), and files made by `cwebp` at odd sizes, checked the same way
/// against MD5s of `dwebp` output (Fixtures/webp-vp8/make_vp8_fixtures.sh).
final class VP8DecoderTests: XCTestCase {
    private func checkVectors(in folder: URL, checksumFile: URL, names: [String]) throws -> Int {
        let expected = try VP8TestSupport.checksums(checksumFile)
        var checked = 0
        for name in names {
            guard let pgm = expected[name + ".pgm"], let ppm = expected[name + ".ppm"] else {
                XCTFail("no reference checksums for \(name)")
                continue
            }
            let actual = try VP8TestSupport.checksums(ofFile: folder.appendingPathComponent(name))
            XCTAssertEqual(actual.pgm, pgm, "\(name): Y′CbCr planes differ from libwebp's")
            XCTAssertEqual(actual.ppm, ppm, "\(name): RGB differs from dwebp's")
            checked += 1
        }
        return checked
    }

    /// The committed vectors: at least one per feature (see Fixtures/webp-vp8/README.md).
    func testCommittedVectorsMatchLibwebp() throws {
        let folder = VP8TestSupport.fixtures
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".webp") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 20)
        let checked = try checkVectors(in: folder, checksumFile: folder.appendingPathComponent("checksums.md5"), names: names)
        XCTAssertEqual(checked, names.count)
    }

    /// All 56 conformance vectors, when `URLSCHEMEKIT_WEBP_VECTORS` names a
    /// folder holding them and libwebp's `libwebp_tests.md5`.
    func testAllConformanceVectorsWhenAvailable() throws {
        guard let path = ProcessInfo.processInfo.environment["URLSCHEMEKIT_WEBP_VECTORS"] else {
            throw XCTSkip("set URLSCHEMEKIT_WEBP_VECTORS to a folder with the vp80-* vectors and libwebp_tests.md5")
        }
        let folder = URL(fileURLWithPath: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("vp80-") && $0.hasSuffix(".webp") }.sorted()
        XCTAssertEqual(names.count, 56, "the conformance set has 56 vp80 vectors")
        let checked = try checkVectors(in: folder, checksumFile: folder.appendingPathComponent("libwebp_tests.md5"), names: names)
        print("VP8DecoderTests: checked \(checked) vp80 vectors against libwebp_tests.md5")
        XCTAssertEqual(checked, names.count)
    }

    func testReadSizeReadsTheFrameHeader() throws {
        let file = [UInt8](try Data(contentsOf: VP8TestSupport.fixtures.appendingPathComponent("vp80-00-comprehensive-006.webp")))
        let chunk = try XCTUnwrap(VP8TestSupport.vp8Chunk(file))
        let size = try chunk.withUnsafeBytes { try VP8Decoder(maximumPixelCount: 1).readSize($0) }
        XCTAssertEqual(size.width, 175)
        XCTAssertEqual(size.height, 143)
    }
}
