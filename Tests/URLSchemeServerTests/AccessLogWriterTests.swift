import Foundation
@testable import URLSchemeServer
import XCTest

/// The access log written in batches to a real pipe: whole lines from many
/// threads, held until the buffer fills, the interval passes or `flush()`.
final class AccessLogWriterTests: XCTestCase {
    /// The bytes waiting in `pipe` now, without blocking.
    private func available(_ pipe: Pipe) -> String {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testLinesWaitForTheBufferTheIntervalOrAFlush() throws {
        let pipe = Pipe()
        let writer = AccessLogWriter(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        writer.write(#"{"n":1}"#)
        XCTAssertEqual(available(pipe), "", "a line waits in the buffer")
        writer.flush()
        XCTAssertEqual(available(pipe), "{\"n\":1}\n")

        writer.write(#"{"n":2}"#)
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertEqual(available(pipe), "{\"n\":2}\n", "written within the flush interval")
    }

    func testAFullBufferIsWrittenAtOnce() throws {
        let pipe = Pipe()
        // An interval far away: only the buffer's size writes.
        let writer = AccessLogWriter(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor, flushInterval: .seconds(3600))
        let line = String(repeating: "x", count: 1023)
        for _ in 0..<(AccessLogWriter.bufferBytes / 1024 - 1) { writer.write(line) }
        XCTAssertEqual(available(pipe), "", "under the buffer's size")
        writer.write(line)
        let burst = available(pipe)
        XCTAssertEqual(burst.count, AccessLogWriter.bufferBytes)
        XCTAssertTrue(burst.split(separator: "\n").allSatisfy { $0 == line })
    }

    func testLinesFromManyThreadsArriveWhole() throws {
        let pipe = Pipe()
        let writer = AccessLogWriter(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        // 1,600 lines of about 25 bytes: under the buffer and the pipe's 64 KiB, so nothing blocks.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<200 { writer.write("{\"thread\":\(thread),\"n\":\(n)}") }
        }
        writer.flush()
        let lines = available(pipe).split(separator: "\n")
        XCTAssertEqual(lines.count, 1600)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("{\"thread\":") && $0.hasSuffix("}") && $0.filter { $0 == "{" }.count == 1 })
    }
}
