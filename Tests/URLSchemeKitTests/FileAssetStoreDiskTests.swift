import XCTest
import ImageCodecs
@testable import URLSchemeKit

/// What a `FileAssetStore` promises on disk: private modes, whole-or-nothing
/// adds even under SIGKILL, damaged files refused, only regular files read.
final class FileAssetStoreDiskTests: XCTestCase {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return info.st_mode & 0o777
    }

    func testTheDirectoryAndFilesArePrivate() throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("photos/nested")
        let store = try FileAssetStore(directory: directory)
        let id = try store.add(try AssetFixtures.data("photo.jpg"))
        XCTAssertEqual(mode(directory.path), 0o700)
        XCTAssertEqual(mode(directory.appendingPathComponent("\(id).asset").path), 0o600)
    }

    func testADamagedOrTruncatedOriginalIsRefusedNamingTheID() throws {
        let store = try FileAssetStore(directory: makeTemporaryDirectory())
        let photo = try AssetFixtures.data("photo.jpg")
        let flipped = try store.add(photo), cut = try store.add(photo)
        let flippedFile = store.directory.appendingPathComponent("\(flipped).asset")
        var bytes = try Data(contentsOf: flippedFile)
        bytes[bytes.count - 100] ^= 1  // one bit of the original
        try bytes.write(to: flippedFile)
        XCTAssertEqual(try store.metadata(for: flipped).byteCount, photo.count)  // the header is intact
        XCTAssertThrowsError(try store.data(for: flipped)) { XCTAssertEqual($0 as? AssetStoreError, .corrupt(flipped)) }
        let cutFile = store.directory.appendingPathComponent("\(cut).asset")
        try Data(contentsOf: cutFile).dropLast(1).write(to: cutFile)
        XCTAssertThrowsError(try store.metadata(for: cut)) { XCTAssertEqual($0 as? AssetStoreError, .corrupt(cut)) }
        XCTAssertThrowsError(try store.data(for: cut)) { XCTAssertEqual($0 as? AssetStoreError, .corrupt(cut)) }
        XCTAssertEqual(try store.data(for: store.add(photo)), photo)
    }

    func testOnlyRegularFilesAreRead() throws {
        let store = try FileAssetStore(directory: makeTemporaryDirectory())
        let link = "aaaaaaaaaaaaaaaaaaaaaaaaaa", fifo = "bbbbbbbbbbbbbbbbbbbbbbbbbb"
        XCTAssertEqual(symlink("/dev/zero", store.directory.appendingPathComponent("\(link).asset").path), 0)
        XCTAssertEqual(mkfifo(store.directory.appendingPathComponent("\(fifo).asset").path, 0o600), 0)
        for id in [link, fifo] {
            // Neither hangs on the FIFO nor reads /dev/zero without end.
            XCTAssertThrowsError(try store.data(for: id)) { XCTAssertEqual($0 as? AssetStoreError, .corrupt(id)) }
            XCTAssertThrowsError(try store.metadata(for: id)) { XCTAssertEqual($0 as? AssetStoreError, .corrupt(id)) }
        }
    }

    func testStaleTemporaryFilesAreRemovedOnOpen() throws {
        let directory = try makeTemporaryDirectory()
        let deadOwner = directory.appendingPathComponent(".tmp-2147483646-A")  // no such process
        let old = directory.appendingPathComponent(".tmp-\(getpid())-B")
        let fresh = directory.appendingPathComponent(".tmp-\(getpid())-C")
        for file in [deadOwner, old, fresh] { try Data("partial".utf8).write(to: file) }
        var times = [timeval(tv_sec: time(nil) - 7200, tv_usec: 0), timeval(tv_sec: time(nil) - 7200, tv_usec: 0)]
        XCTAssertEqual(utimes(old.path, &times), 0)
        _ = try FileAssetStore(directory: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: deadOwner.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh.path), "a live process's add in progress is left alone")
    }

    /// `urlscheme add` killed with SIGKILL at moments spread over its run:
    /// each time the store holds the whole asset or none of it.
    func testSIGKILLDuringAddLeavesTheWholeAssetOrNone() throws {
        let binary = URL(fileURLWithPath: try CLIBinary.require())
        let root = try makeTemporaryDirectory()
        // The fixture photo with 4 MiB of APP15 segments after its SOI: still a
        // valid JPEG, and large enough that kills land while it is being written.
        let original = try AssetFixtures.data("photo.jpg")
        var photo = Data(original.prefix(2))
        let padding = [UInt8](repeating: 0x5A, count: 65_533)
        for _ in 0..<64 { photo.append(contentsOf: [0xFF, 0xEF, 0xFF, 0xFF] + padding) }
        photo.append(original.dropFirst(2))
        let input = root.appendingPathComponent("photo.jpg")
        try photo.write(to: input)
        let directory = root.appendingPathComponent("store")
        var finished = 0, killed = 0
        for attempt in 0..<16 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["add", input.path, input.path, input.path, "--assets", directory.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(attempt * 15_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 } else { finished += 1 }
        }
        XCTAssertGreaterThan(killed, 0)
        let store = try FileAssetStore(directory: directory)
        for id in try store.list() {
            XCTAssertEqual(try store.data(for: id), photo, id)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".asset") }
        XCTAssertEqual(leftovers, [], "the temporary files of killed adds are removed when the store is opened")
        XCTAssertGreaterThanOrEqual(try store.list().count, finished * 3)
    }
}
