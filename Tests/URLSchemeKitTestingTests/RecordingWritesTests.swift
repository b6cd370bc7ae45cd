import Foundation
import XCTest
import URLSchemeKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how the recording file is written: once when the test ends (not
/// per entry), and by atomic replace, so a crash never leaves half a file.
final class RecordingWritesTests: XCTestCase {
    /// The file's inode: an atomic replace makes a new one, so an unchanged
    /// inode means no write happened.
    private func inode(_ file: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int ?? -1
    }

    func testRecordingNEntriesWritesTheFileOnceNotPerEntry() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("long.har")
        let before = HAREntry(startedDateTime: "2026-11-28T00:00:00.000Z", time: 1,
                              request: HARRequest(method: "GET", url: "https://h.example/old", headers: [], body: nil),
                              response: HARResponse(status: 200, headers: [], content: HARContent(body: Data("old".utf8), mimeType: "text/plain")))
        try HARWriter().write(HARFile(log: HARLog(entries: [before])), to: file)
        let original = try Data(contentsOf: file)
        let originalInode = try inode(file)
        let origin = try TestOrigin(test: self)
        try await origin.route("/n", body: "n")

        let recorder = try HTTPRecorder(file: file, options: options(.newEpisodes))
        let session = recorder.makeSession()
        let count = 40
        for index in 0..<count {
            _ = try await load(session, origin.url("/n?i=\(index)"))
            // What a crash at this point would leave: the previous file, whole and untouched.
            guard try inode(file) == originalInode, try Data(contentsOf: file) == original else {
                return XCTFail("the file was written after entry \(index)")
            }
        }
        XCTAssertEqual(recorder.entries.count, count + 1)
        try recorder.finish()
        let written = try inode(file)
        XCTAssertNotEqual(written, originalInode, "finish() writes the recording")
        let har = try HARReader().read(contentsOf: file)
        XCTAssertEqual(har.log.entries.map(\.request.url), ["https://h.example/old"] + (0..<count).map { origin.url("/n?i=\($0)") })
        // Nothing new: neither a second finish() nor save() writes again.
        try recorder.finish()
        try recorder.save()
        XCTAssertEqual(try inode(file), written)
    }

    func testAReaderNeverSeesHalfAWrittenRecording() throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("busy.har")
        let body = Data(String(repeating: "0123456789abcdef", count: 4096).utf8)
        func har(_ entries: Int) -> HARFile {
            HARFile(log: HARLog(entries: (0..<entries).map { index in
                HAREntry(startedDateTime: "2026-11-28T00:00:00.000Z", time: 1,
                         request: HARRequest(method: "GET", url: "https://h.example/\(index)", headers: [], body: nil),
                         response: HARResponse(status: 200, headers: [], content: HARContent(body: body, mimeType: "text/plain")))
            }))
        }
        try HARWriter().write(har(1), to: file)
        let files = (1...12).map(har)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for _ in 0..<5 { for each in files { try? HARWriter().write(each, to: file) } }
            done.signal()
        }
        var reads = 0
        while done.wait(timeout: .now()) == .timedOut {
            // A write that truncated the file in place would show here as invalid JSON.
            do {
                _ = try HARReader().read(contentsOf: file)
            } catch {
                done.wait()
                return XCTFail("read \(reads): \(error)")
            }
            reads += 1
        }
        XCTAssertGreaterThan(reads, 0)
    }
}
