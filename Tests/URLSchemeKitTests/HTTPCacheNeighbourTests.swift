import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// Another local user against the HTTP cache's files: what they plant in the
/// shared temporary directory (the spool folder of caches without a disk
/// store) or beside a cache's entries (`partition.key`) is never trusted. The
/// tests run as root and stand for the other user by giving what they plant
/// to uid 65534 or a mode no owner of ours would set. Spool tests run in a
/// child process whose `TMPDIR` is a fresh folder (the spool folder is found
/// once per process), with a real loopback origin in the parent.
final class HTTPCacheNeighbourTests: XCTestCase {
    private static let originVariable = "URLSCHEMEKIT_CHILD_ORIGIN"
    private static let stageVariable = "URLSCHEMEKIT_CHILD_STAGE"
    /// The other user's uid (nobody).
    private static let otherUser: uid_t = 65_534

    /// Runs this test in a child with `TMPDIR` set to `temporary`, the
    /// origin's URL and `stage`, and checks it passed (unless `expecting` a signal).
    @discardableResult
    private func runInChild(temporary: URL, origin: URL? = nil, stage: String = "", expecting signal: Int32? = nil) throws -> ChildRun {
        let run = try runInChildProcess(environment: ["TMPDIR": temporary.path, Self.originVariable: origin?.absoluteString ?? "",
                                                      Self.stageVariable: stage])
        print("\(name) \(stage) in a child process: \(run.summary)")
        if let signal {
            XCTAssertEqual(run.signal, signal, run.stderr)
        } else {
            XCTAssertEqual(run.status, 0, run.stderr.split(separator: "\n").filter { $0.contains("error") }.joined(separator: "\n"))
        }
        return run
    }

    /// The spool folder's fixed name under `temporary`.
    private func spoolFolder(in temporary: URL) -> String { temporary.appendingPathComponent("URLSchemeKit-spool-\(geteuid())").path }

    private static func pattern(_ size: Int) -> Data { Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }) }

    /// Another user made the spool folder first, mode 0777, and swaps every
    /// spool file that appears in it for one of their own of the body's full
    /// size (a rename, from a second thread, while a 20 MiB body downloads):
    /// the load returns the origin's bytes, and writes nothing into their folder.
    /// Before: `data(for:)` returned the other user's bytes.
    func testASpoolFolderPlantedByAnotherUserSeesAndSwapsNothing() async throws {
        let size = 20 << 20
        if !isChildTest {
            let temporary = try makeTemporaryDirectory()
            let planted = spoolFolder(in: temporary)
            XCTAssertEqual(mkdir(planted, 0o777), 0)
            XCTAssertEqual(chmod(planted, 0o777), 0)
            XCTAssertEqual(chown(planted, Self.otherUser, Self.otherUser), 0)
            let origin = try OriginServer(test: self)
            try origin.route("/page", headers: ["Cache-Control": "no-store"], bodySize: size)
            try runInChild(temporary: temporary, origin: origin.url(""))
            let ours = try FileManager.default.contentsOfDirectory(atPath: planted).filter { !$0.hasPrefix("theirs-") }
            XCTAssertEqual(ours, [], "nothing of ours left in the other user's folder")
            return
        }
        // In the child, whose TMPDIR holds the planted folder: the other user's swapper.
        let url = try XCTUnwrap(URL(string: ProcessInfo.processInfo.environment[Self.originVariable] ?? "")).appendingPathComponent("page")
        let swaps = Swapper(folder: spoolFolder(in: FileManager.default.temporaryDirectory), size: CacheEntryFile.prefixLength + size)
        defer { swaps.stop() }
        var configuration = HTTPCache.Configuration()
        configuration.spoolThreshold = 64 << 10
        let (data, _) = try await makeCachedSession(HTTPCache(directory: nil, configuration: configuration))
            .data(for: URLRequest(url: url, timeoutInterval: 30))
        swaps.stop()
        print("spool files swapped: \(swaps.count)")
        XCTAssertEqual(data.count, size)
        XCTAssertTrue(data == Self.pattern(size), "the origin's bytes, not the other user's")
    }

    /// A process killed mid-download leaves no spool file behind, and the
    /// next one to start finds none. Before: its 0600 spool file stayed for good.
    func testAKilledDownloadLeavesNoSpoolFile() async throws {
        if !isChildTest {
            let temporary = try makeTemporaryDirectory()
            let origin = try OriginServer(test: self)
            try origin.route("/endless", endless: true)
            try runInChild(temporary: temporary, origin: origin.url("/endless"), stage: "download", expecting: SIGKILL)
            try runInChild(temporary: temporary, stage: "start")
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: spoolFolder(in: temporary))) ?? []).filter { $0.hasPrefix(".tmp-spool-") }
            XCTAssertEqual(left, [], "no spool file left by the killed process")
            return
        }
        let folder = spoolFolder(in: FileManager.default.temporaryDirectory)
        let environment = ProcessInfo.processInfo.environment
        guard environment[Self.stageVariable] == "download", let url = URL(string: environment[Self.originVariable] ?? "") else {
            // The next process: a cache without a disk store starts.
            _ = HTTPCache(directory: nil)
            return
        }
        var configuration = HTTPCache.Configuration()
        configuration.spoolThreshold = 64 << 10
        let session = makeCachedSession(HTTPCache(directory: nil, configuration: configuration))
        let load = Task { _ = try? await session.data(for: URLRequest(url: url, timeoutInterval: 30)) }
        // Killed once a megabyte has gone to its spool file.
        let written = try Self.bytesWritten()
        for _ in 0..<1_000 where try Self.bytesWritten() - written < 1 << 20 { try await Task.sleep(nanoseconds: 10_000_000) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".tmp-spool-") }
        print("spool files by name while downloading: \(names.count)")
        kill(getpid(), SIGKILL)
        load.cancel()
    }

    /// Spool files left by processes that are gone are removed when a cache
    /// without a disk store starts, and nothing else: not a live process's,
    /// not another user's, not a link, not a file of another name. Before:
    /// nothing was ever removed.
    func testStaleSpoolFilesOfDeadProcessesAreSweptAtStart() throws {
        if isChildTest { return _ = HTTPCache(directory: nil) }
        let temporary = try makeTemporaryDirectory()
        let folder = spoolFolder(in: temporary)
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        let dead = try Self.deadPID(), live = getpid()
        let old = Date(timeIntervalSinceNow: -7_200)
        func plant(_ name: String, owner: uid_t = geteuid(), modified: Date? = nil) -> String {
            let path = folder + "/" + name
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(count: 4_096), attributes: [.posixPermissions: 0o600]))
            XCTAssertEqual(chown(path, owner, owner), 0)
            if let modified { try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
            return name
        }
        let swept = [plant(".tmp-spool-\(dead)-\(UUID().uuidString)"),
                     plant(".tmp-spool-\(UUID().uuidString)", modified: old)]   // a version without the pid, old
        var kept = [plant(".tmp-spool-\(live)-\(UUID().uuidString)"),
                    plant(".tmp-spool-\(dead)-\(UUID().uuidString)", owner: Self.otherUser),
                    plant(".tmp-spool-\(UUID().uuidString)"),                   // a version without the pid, recent
                    plant("notes-\(dead)", modified: old)]
        let target = try makeTemporaryDirectory("target").appendingPathComponent("kept").path
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data("kept".utf8)))
        let link = ".tmp-spool-\(dead)-\(UUID().uuidString)"
        XCTAssertEqual(symlink(target, folder + "/" + link), 0)
        kept.append(link)
        try runInChild(temporary: temporary)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        XCTAssertEqual(left.intersection(swept), [], "the dead processes' spool files are gone")
        XCTAssertEqual(left.intersection(kept), Set(kept), "everything else stays")
        XCTAssertTrue(FileManager.default.fileExists(atPath: target), "a link's target is untouched")
    }

    /// What holds the spool folder's name decides the folder used: one of
    /// ours is used, made 0700 again if it was wider; another user's folder,
    /// a link (even to a folder of ours) or a file is not followed nor
    /// written: a fresh private folder beside it is used.
    func testTheSpoolFolderIsOursAndPrivateWhateverHeldItsName() throws {
        let temporary = try makeTemporaryDirectory()
        let target = try makeTemporaryDirectory("target").path
        for plant in ["ours, 0777", "another user's", "a link", "a file", "missing"] {
            let path = temporary.appendingPathComponent(plant.filter(\.isLetter)).path
            switch plant {
            case "ours, 0777":
                XCTAssertEqual(mkdir(path, 0o777), 0)
                XCTAssertEqual(chmod(path, 0o777), 0)
            case "another user's":
                XCTAssertEqual(mkdir(path, 0o700), 0)
                XCTAssertEqual(chown(path, Self.otherUser, Self.otherUser), 0)
            case "a link":
                XCTAssertEqual(symlink(target, path), 0)
            case "a file":
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
            default:
                break
            }
            let folder = try SpoolFolder.at(path)
            var status = stat()
            XCTAssertEqual(lstat(folder.path, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR, plant)
            XCTAssertEqual(status.st_mode & 0o777, 0o700, plant)
            XCTAssertEqual(status.st_uid, geteuid(), plant)
            XCTAssertEqual(folder.path == path, ["ours, 0777", "missing"].contains(plant), "\(plant): \(folder.path)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), [], "nothing made through the link")
    }

    /// A pid no process has: a child's, once it has exited.
    private static func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// A `partition.key` planted beside a cache's entries (world-readable,
    /// another user's, or a link to a file they wrote) is not used as the
    /// partitions' key: it is replaced by a key of our own, 0600, so whoever
    /// planted it cannot recompute partition names. Before: any 32 bytes
    /// there were the key.
    func testAPlantedPartitionKeyIsReplaced() throws {
        let planted = [UInt8](repeating: 7, count: 32)
        let request = { () -> URLRequest in
            var request = URLRequest(url: URL(string: "https://example.com/inbox")!)
            request.setValue("Bearer alice-token", forHTTPHeaderField: "Authorization")
            return request
        }()
        let theirs = KeyedHash(key: planted).hex("Authorization:Bearer alice-token")
        for plant in ["world-readable", "another user's", "a link"] {
            let directory = try makeTemporaryDirectory(plant)
            let key = directory.appendingPathComponent(CachePartitions.keyFileName).path
            switch plant {
            case "world-readable":
                XCTAssertTrue(FileManager.default.createFile(atPath: key, contents: Data(planted), attributes: [.posixPermissions: 0o644]))
            case "another user's":
                XCTAssertTrue(FileManager.default.createFile(atPath: key, contents: Data(planted), attributes: [.posixPermissions: 0o600]))
                XCTAssertEqual(chown(key, Self.otherUser, Self.otherUser), 0)
            default:
                let elsewhere = try makeTemporaryDirectory("elsewhere").appendingPathComponent("key").path
                XCTAssertTrue(FileManager.default.createFile(atPath: elsewhere, contents: Data(planted), attributes: [.posixPermissions: 0o600]))
                XCTAssertEqual(symlink(elsewhere, key), 0)
            }
            let cache = HTTPCache(directory: directory)
            XCTAssertNotEqual(cache.partitions.partition(for: request), theirs, "\(plant) key file not used")
            var status = stat()
            XCTAssertEqual(lstat(key, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG, "\(plant): a regular file now")
            XCTAssertEqual(status.st_mode & 0o777, 0o600, "\(plant): 0600 now")
            XCTAssertEqual(status.st_uid, geteuid(), "\(plant): ours now")
            XCTAssertNotEqual(FileManager.default.contents(atPath: key).map(Array.init), planted, "\(plant): a new key")
            // Another instance on the directory finds the same, new key.
            XCTAssertEqual(HTTPCache(directory: directory).partitions.partition(for: request), cache.partitions.partition(for: request))
        }
    }

    /// Bytes this process has passed to `write` so far (`wchar` of /proc/self/io).
    private static func bytesWritten() throws -> Int {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try XCTUnwrap(io.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try XCTUnwrap(Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }
}

/// The other user: renames a file of their own over every spool file that
/// appears in `folder`, polling from a thread of its own.
private final class Swapper: @unchecked Sendable {
    // @unchecked Sendable: `swapped` and `running` are guarded by `lock`; the
    // rest is set once in init.
    private let lock = NSLock()
    private var swapped = Set<String>()
    private var running = true
    private let folder: String
    private let theirs: Data

    init(folder: String, size: Int) {
        self.folder = folder
        theirs = Data(repeating: UInt8(ascii: "E"), count: size)
        Thread { self.run() }.start()
    }

    private func run() {
        while lock.withLock({ running }) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".tmp-spool-") {
                guard lock.withLock({ swapped.insert(name).inserted }) else { continue }
                let path = folder + "/theirs-" + UUID().uuidString
                guard FileManager.default.createFile(atPath: path, contents: theirs) else { continue }
                rename(path, folder + "/" + name)
            }
            usleep(200)
        }
    }

    /// Spool files swapped so far.
    var count: Int { lock.withLock { swapped.count } }

    func stop() { lock.withLock { running = false } }
}
