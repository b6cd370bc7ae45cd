import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// The HTTP cache's keyed hash against the published test vectors: FIPS 180-4's
/// SHA-256 examples and RFC 4231's HMAC-SHA-256 cases.
final class KeyedHashTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testSHA256MatchesTheStandardsExamples() {
        XCTAssertEqual(hex(KeyedHash.sha256(Array("abc".utf8))),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(KeyedHash.sha256([UInt8]())),
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(KeyedHash.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "two blocks")
        XCTAssertEqual(hex(KeyedHash.sha256([UInt8](repeating: 0x61, count: 1_000))),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testHMACMatchesRFC4231() {
        XCTAssertEqual(hex(KeyedHash(key: [UInt8](repeating: 0x0b, count: 20)).mac(Array("Hi There".utf8))),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(hex(KeyedHash(key: Array("Jefe".utf8)).mac(Array("what do ya want for nothing?".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Case 6: a key longer than a block is hashed first.
        XCTAssertEqual(hex(KeyedHash(key: [UInt8](repeating: 0xaa, count: 131))
                        .mac(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testAPartitionNamesCredentialsWithoutHoldingThem() throws {
        let directory = try makeTemporaryDirectory()
        let partitions = CachePartitions(directory: directory)
        var alice = URLRequest(url: URL(string: "https://example.com/me")!)
        alice.setValue("Bearer alice-token", forHTTPHeaderField: "Authorization")
        var bob = alice
        bob.setValue("Bearer bob-token", forHTTPHeaderField: "Authorization")
        let alicePartition = try XCTUnwrap(partitions.partition(for: alice))
        XCTAssertNotEqual(alicePartition, partitions.partition(for: bob))
        XCTAssertFalse(alicePartition.contains("alice"))
        XCTAssertNil(partitions.partition(for: URLRequest(url: URL(string: "https://example.com/me")!)), "no credentials: shared")
        XCTAssertNotNil(partitions.partition(for: URLRequest(url: URL(string: "https://u:p@example.com/me")!)))
        XCTAssertEqual(CachePartitions(directory: directory).partition(for: alice), alicePartition,
                       "another instance on the directory finds the same partition")
        XCTAssertNotEqual(CachePartitions(directory: nil).partition(for: alice), alicePartition, "a memory-only cache has a key of its own")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(CachePartitions.keyFileName).path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, "only its owner may read the key")
    }
}
