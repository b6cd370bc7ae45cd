import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

final class ImageURLCacheTests: XCTestCase {
    private func entry(_ url: String, bytes: Int = 100, fill: UInt8 = 7) -> (URLRequest, CachedURLResponse) {
        let url = URL(string: url)!
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "image/png"])!
        return (URLRequest(url: url), CachedURLResponse(response: response, data: Data(repeating: fill, count: bytes)))
    }

    func testStoresAndFindsByCanonicalKey() throws {
        let cache = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0)
        let (request, response) = entry("map://?b=2&a=1")
        cache.storeCachedResponse(response, for: request)
        XCTAssertEqual(cache.cachedResponse(for: URLRequest(url: URL(string: "map://?a=1&b=2")!))?.data, response.data)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: URL(string: "map://?a=1&b=3")!)))
        XCTAssertNil(cache.directory)
    }

    func testANewInstanceOnTheSameDirectoryServesWhatAnEarlierOneStored() throws {
        let directory = try makeTemporaryDirectory()
        let (request, response) = entry("map://?latitude=59.9&longitude=30.3", bytes: 5000)
        let earlier = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
        earlier.storeCachedResponse(response, for: request)
        earlier.flush()

        let later = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
        XCTAssertEqual(later.currentDiskUsage, try diskBytes(directory))
        let hit = try XCTUnwrap(later.cachedResponse(for: request))
        XCTAssertEqual(hit.data, response.data)
        XCTAssertEqual((hit.response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual((hit.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(hit.response.url, request.url)
    }

    /// Files are written behind the store: until then the entry answers from
    /// the pending writes (even with no memory tier), a removal or a newer
    /// store in between leaves no file or the newer one, and `flush()` waits.
    func testWritesBehindAreVisibleAtOnceAndNeverResurrectARemovedEntry() throws {
        let directory = try makeTemporaryDirectory()
        let cache = ImageURLCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        let (request, first) = entry("map://?behind=1", bytes: 3000)
        for _ in 0..<50 {
            cache.storeCachedResponse(first, for: request)
            XCTAssertEqual(cache.cachedResponse(for: request)?.data, first.data, "a store is seen at once")
            cache.removeCachedResponse(for: request)
        }
        cache.flush()
        XCTAssertNil(cache.cachedResponse(for: request), "a removed entry stays removed")
        XCTAssertEqual(try diskBytes(directory), 0, "no write landed after its removal")

        let newer = CachedURLResponse(response: first.response, data: Data(repeating: 7, count: 2000))
        cache.storeCachedResponse(first, for: request)
        cache.storeCachedResponse(newer, for: request)
        cache.flush()
        let later = ImageURLCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        XCTAssertEqual(later.cachedResponse(for: request)?.data, newer.data, "the last store is the one on disk")
    }

    func testCorruptedOrTruncatedEntryFilesAreMissesAndDropped() throws {
        let directory = try makeTemporaryDirectory()
        let (request, response) = entry("map://?x=1", bytes: 3000)
        let writer = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
        writer.storeCachedResponse(response, for: request)
        writer.flush()
        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).first)
        let original = try Data(contentsOf: file)

        var flipped = original
        flipped[original.count / 2] ^= 0x01
        for damaged in [flipped, original.prefix(original.count - 1), original.prefix(10), Data()] {
            try damaged.write(to: file)
            let cache = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
            XCTAssertNil(cache.cachedResponse(for: request), "damaged file of \(damaged.count) bytes was served")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "damaged file was kept")
        }
        try original.write(to: file)
        XCTAssertNotNil(ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory).cachedResponse(for: request))
    }

    func testCapacitiesHoldAndUsageTellsTheTruth() throws {
        let directory = try makeTemporaryDirectory()
        let cache = ImageURLCache(memoryCapacity: 10_000, diskCapacity: 20_000, directory: directory)
        for i in 0..<40 {
            let (request, response) = entry("map://?i=\(i)", bytes: 1500)
            cache.storeCachedResponse(response, for: request)
            XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 10_000)
            XCTAssertLessThanOrEqual(cache.currentDiskUsage, 20_000)
        }
        XCTAssertEqual(cache.currentDiskUsage, try diskBytes(directory), "usage counts the files once written")
        XCTAssertGreaterThan(cache.currentMemoryUsage, 10_000 - 1600)
        // Least recently used went first: the newest entry is still there, the oldest is gone.
        XCTAssertNotNil(cache.cachedResponse(for: entry("map://?i=39").0))
        XCTAssertNil(cache.cachedResponse(for: entry("map://?i=0").0))

        // An entry larger than the memory capacity is kept on disk only.
        let (bigRequest, big) = entry("map://?big=1", bytes: 15_000)
        cache.storeCachedResponse(big, for: bigRequest)
        XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 10_000)
        XCTAssertEqual(cache.cachedResponse(for: bigRequest)?.data.count, 15_000)

        cache.memoryCapacity = 2_000
        XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 2_000)
        cache.diskCapacity = 5_000
        XCTAssertLessThanOrEqual(cache.currentDiskUsage, 5_000)
        XCTAssertEqual(cache.currentDiskUsage, try diskBytes(directory))

        cache.removeCachedResponse(for: entry("map://?i=39").0)
        XCTAssertNil(cache.cachedResponse(for: entry("map://?i=39").0))
        cache.removeAllCachedResponses()
        XCTAssertEqual(cache.currentMemoryUsage, 0)
        XCTAssertEqual(cache.currentDiskUsage, 0)
        XCTAssertEqual(try diskBytes(directory), 0)
    }

    func testStoragePoliciesAreRespected() throws {
        let directory = try makeTemporaryDirectory()
        let cache = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
        let (request, response) = entry("map://?p=1")
        cache.storeCachedResponse(CachedURLResponse(response: response.response, data: response.data, storagePolicy: .notAllowed), for: request)
        XCTAssertNil(cache.cachedResponse(for: request))
        cache.storeCachedResponse(CachedURLResponse(response: response.response, data: response.data, storagePolicy: .allowedInMemoryOnly), for: request)
        XCTAssertNotNil(cache.cachedResponse(for: request))
        XCTAssertEqual(try diskBytes(directory), 0)
    }

    func testRemoveSinceDate() throws {
        let cache = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: try makeTemporaryDirectory())
        let (old, oldResponse) = entry("map://?t=old")
        cache.storeCachedResponse(oldResponse, for: old)
        let cut = Date().addingTimeInterval(5)
        XCTAssertNotNil(cache.cachedResponse(for: old))
        cache.removeCachedResponses(since: cut)
        XCTAssertNotNil(cache.cachedResponse(for: old))
        cache.removeCachedResponses(since: Date.distantPast)
        XCTAssertNil(cache.cachedResponse(for: old))
    }

    /// 8 threads × 10,000 mixed stores, lookups and removals on one instance:
    /// every hit carries the bytes of its own key, and the books balance after.
    func testConcurrentMixedUseStaysConsistent() throws {
        let directory = try makeTemporaryDirectory()
        let cache = ImageURLCache(memoryCapacity: 64 * 600, diskCapacity: 128 * 700, directory: directory)
        let keys = 200
        let wrongHits = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0..<10_000 {
                random ^= random << 13; random ^= random >> 7; random ^= random << 17
                let k = Int(random % UInt64(keys))
                let request = URLRequest(url: URL(string: "map://?k=\(k)")!)
                switch random >> 60 {
                case 0..<4:
                    let response = URLResponse(url: request.url!, mimeType: "image/png", expectedContentLength: 500, textEncodingName: nil)
                    let policy: URLCache.StoragePolicy = k % 4 == 0 ? .allowed : .allowedInMemoryOnly
                    cache.storeCachedResponse(CachedURLResponse(response: response, data: Data(repeating: UInt8(k), count: 500),
                                                                userInfo: nil, storagePolicy: policy), for: request)
                case 4:
                    cache.removeCachedResponse(for: request)
                default:
                    if let hit = cache.cachedResponse(for: request), hit.data != Data(repeating: UInt8(k), count: 500) {
                        wrongHits.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        XCTAssertEqual(wrongHits.load(ordering: .relaxed), 0)
        XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 64 * 600)
        XCTAssertLessThanOrEqual(cache.currentDiskUsage, 128 * 700)
        XCTAssertEqual(cache.currentDiskUsage, try diskBytes(directory))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".tmp").path)
        XCTAssertEqual(leftovers, [])
    }

    /// Cached responses can be a user's photos or pages: other local users must not read them.
    func testTheDirectoryAndEntryFilesArePrivateToTheUser() throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("cache", isDirectory: true)
        let cache = ImageURLCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        let (request, response) = entry("map://?private=1")
        cache.storeCachedResponse(response, for: request)
        cache.flush()
        XCTAssertEqual(try permissions(directory), 0o700)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == DiskEntryStore.fileExtension }
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(try permissions(files[0]), 0o600)

        // A directory an older version made world-readable is tightened when opened.
        chmod(directory.path, 0o755)
        _ = ImageURLCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        XCTAssertEqual(try permissions(directory), 0o700)
    }

    /// Two instances stand for two processes: each keeps its own index, yet
    /// together they never hold more than the capacity on disk.
    func testTheDiskCapacityHoldsAcrossInstancesSharingADirectory() throws {
        let directory = try makeTemporaryDirectory()
        let first = ImageURLCache(memoryCapacity: 0, diskCapacity: 20_000, directory: directory)
        let second = ImageURLCache(memoryCapacity: 0, diskCapacity: 20_000, directory: directory)
        for i in 0..<30 {
            let (request, response) = entry("map://?shared=\(i)", bytes: 1500)
            (i % 2 == 0 ? first : second).storeCachedResponse(response, for: request)
            first.flush()
            second.flush()
            XCTAssertLessThanOrEqual(try diskBytes(directory), 20_000, "after store \(i)")
        }
        XCTAssertNotNil(second.cachedResponse(for: entry("map://?shared=28").0), "the newest entries survive")
    }

    func testStaleTemporaryFilesAreRemovedAndPlantedLinksAreNotRead() throws {
        let directory = try makeTemporaryDirectory()
        let temporaries = directory.appendingPathComponent(".tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporaries, withIntermediateDirectories: true)
        let stale = temporaries.appendingPathComponent(".tmp-left-by-a-killed-writer")
        let recent = temporaries.appendingPathComponent(".tmp-being-written-now")
        try Data(count: 100).write(to: stale)
        try Data(count: 100).write(to: recent)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: stale.path)
        let cache = ImageURLCache(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory)
        XCTAssertEqual(cache.currentDiskUsage, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent.path), "a writer may still be at work on it")

        // An entry file replaced by a link to /dev/zero is a miss, not an endless read.
        let (request, _) = entry("map://?link=1")
        let name = DiskEntryStore.fileName(for: try XCTUnwrap(CacheKey(request: request)))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(name).path, withDestinationPath: "/dev/zero")
        XCTAssertNil(cache.cachedResponse(for: request))
    }

    private func permissions(_ url: URL) throws -> Int {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return Int(status.st_mode & 0o777)
    }

    private func diskBytes(_ directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])
            .filter { $0.pathExtension == DiskEntryStore.fileExtension }
            .reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
    }
}
