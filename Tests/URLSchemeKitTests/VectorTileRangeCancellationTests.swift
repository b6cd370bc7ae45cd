import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// A PMTiles archive read by ranges from a server that answers the opening
/// request and then stalls every tile range: cancelling the `map://` load,
/// or its render deadline passing, ends the load at once and cancels the
/// range request in flight (the server sees its connection closed).
final class VectorTileRangeCancellationTests: XCTestCase {
    /// A python3 server on 127.0.0.1 serving one file by ranges: the range
    /// starting at 0 at once, any other stalled for up to 30 s while it
    /// watches the connection, logging "stalled a-b" and, when the client
    /// closes it, "closed a-b" (what a cancelled URLSessionTask does).
    final class StallingRangeServer {
        let port: Int
        let log: URL
        private let process: Process

        init(serving file: URL, log: URL, test: XCTestCase) throws {
            self.log = log
            let script = """
                import http.server, select, socket, sys, time
                data = open(sys.argv[1], "rb").read()
                log = open(sys.argv[2], "a", buffering=1)
                class Handler(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        first, _, last = self.headers.get("Range", "bytes=0-")[6:].partition("-")
                        first, last = int(first), min(int(last or len(data) - 1), len(data) - 1)
                        if first > 0:
                            log.write("stalled %d-%d\\n" % (first, last))
                            deadline = time.time() + 30
                            while time.time() < deadline:
                                ready, _, _ = select.select([self.connection], [], [], 0.05)
                                if ready and self.connection.recv(1, socket.MSG_PEEK) == b"":
                                    log.write("closed %d-%d\\n" % (first, last))
                                    return
                            return
                        self.send_response(206)
                        self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, len(data)))
                        self.send_header("Content-Length", str(last + 1 - first))
                        self.end_headers()
                        self.wfile.write(data[first:last + 1])
                    def log_message(self, *args):
                        pass
                server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
                print(server.server_address[1], flush=True)
                server.serve_forever()
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, file.path, log.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            self.process = process
            test.addTeardownBlock {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                line.append(chunk)
            }
            port = try XCTUnwrap(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        }

        var lines: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits up to `seconds` for a log line starting with `prefix`.
        func waitFor(_ prefix: String, seconds: Double) -> Bool {
            let end = Date(timeIntervalSinceNow: seconds)
            while Date() < end {
                if lines.contains(where: { $0.hasPrefix(prefix) }) { return true }
                usleep(20_000)
            }
            return false
        }
    }

    /// Starts the load of `url` and returns when it ends, with its error and its duration from `start`.
    func load(_ session: URLSession, _ url: URL, whenStalled server: StallingRangeServer, cancel: Bool) throws -> (error: Error?, seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        let task = session.dataTask(with: url) { _, _, error in
            outcome.set(error)
            done.signal()
        }
        task.resume()
        XCTAssertTrue(server.waitFor("stalled", seconds: 20), "a tile range was asked for: \(server.lines)")
        let start = Date()
        if cancel { task.cancel() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the load ended")
        return (outcome.error, Date().timeIntervalSince(start))
    }

    final class OutcomeBox: @unchecked Sendable {
        // @unchecked Sendable: written once by the completion handler before
        // the semaphore is signalled, read only after it was waited for.
        var error: Error?
        func set(_ error: Error?) { self.error = error }
    }

    /// A map of the archive's centre, small enough to need few tiles.
    private static let mapURL = "map://?latitude=60.1705&longitude=24.945&zoom=15&width=64&height=64&tiles=remote"

    /// A stalling server with the Helsinki archive, and the tile sources with it as `remote`.
    private func stallingSource() throws -> (StallingRangeServer, MapTileSources) {
        let directory = try makeTemporaryDirectory()
        let server = try StallingRangeServer(serving: VectorMapURLTests.archive("openmaptiles"),
                                             log: directory.appendingPathComponent("log"), test: self)
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/hel.pmtiles"))
        var sources = MapTileSources()
        sources.register("remote", try VectorTileSource.open(HTTPRangeByteSource(url: url)))
        return (server, sources)
    }

    func testCancellingTheLoadCancelsTheRangeRequest() throws {
        let (server, sources) = try stallingSource()
        XCTAssertFalse(server.lines.contains { $0.hasPrefix("stalled") }, "opening reads only the first 16 KiB")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: nil, httpCache: nil))
        let session = URLSession(configuration: configuration)
        let map = try XCTUnwrap(URL(string: Self.mapURL))

        let (error, seconds) = try load(session, map, whenStalled: server, cancel: true)
        XCTAssertEqual((error as? URLError)?.code, .cancelled, "\(String(describing: error))")
        XCTAssertLessThan(seconds, 1.0, "the load ends at once, not when the range answers")
        XCTAssertTrue(server.waitFor("closed", seconds: 5), "the range request was cancelled: \(server.lines)")
    }

    func testTheRenderDeadlineCancelsTheRangeRequest() throws {
        let (server, sources) = try stallingSource()
        var budget = ResourceBudget()
        budget.renderDeadline = 1.5
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(budget: budget, tileSources: sources, imageCache: nil, httpCache: nil))
        let session = URLSession(configuration: configuration)
        let map = try XCTUnwrap(URL(string: Self.mapURL))

        let (error, seconds) = try load(session, map, whenStalled: server, cancel: false)
        XCTAssertEqual((error as? URLError)?.code, .timedOut, "\(String(describing: error))")
        XCTAssertTrue(error?.localizedDescription.contains("deadline") == true, "\(String(describing: error))")
        XCTAssertLessThan(seconds, 3.0, "the load ends at its deadline, not when the range answers (15 s)")
        XCTAssertTrue(server.waitFor("closed", seconds: 5), "the range request was cancelled: \(server.lines)")
    }
}
