import Foundation
import XCTest

/// Hostile clients against a real `urlscheme serve` child process on
/// loopback, with the time each attack takes to be dealt with and the
/// server's peak resident memory measured (`/proc/PID/status`, VmHWM):
/// slow clients holding half a head, header bombs, many connections with
/// pipelined requests, and random requests. Budgets: each phase under 5 s and
/// the server under 300 MB in a debug build (figures in docs/serving.md).
final class HostileClientTests: XCTestCase {
    private var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("urlscheme").path
    }

    private struct Server {
        let process: Process
        let port: UInt16
        /// Peak resident memory so far, in MB.
        var peakMB: Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
        }
    }

    private func startServer() throws -> Server {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            if ProcessInfo.processInfo.environment["URLSCHEMEKIT_REQUIRE_CLI"] == "1" { throw POSIXError(.ENOENT) }
            throw XCTSkip("build the urlscheme product first: \(binary)")
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-clients-" + UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--workers", "2", "--max-connections", "2048", "--no-cache",
                             "--assets", home.appendingPathComponent("assets").path, "--tiles", "hel=" + TileRoutesTests.archive.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": home.path]) { $1 }
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice  // the access log: thousands of lines, unread
        process.standardError = err
        try process.run()
        addTeardownBlock { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        var stderr = ""
        while !stderr.contains("\n"), process.isRunning {
            stderr += String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
        }
        let prefix = "urlscheme: serving on http://127.0.0.1:"
        guard stderr.hasPrefix(prefix), let port = UInt16(stderr.dropFirst(prefix.count).prefix { $0.isNumber }) else {
            throw POSIXError(.ECONNREFUSED)
        }
        return Server(process: process, port: port)
    }

    /// Seconds `body` takes.
    private func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now()
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// One GET on a fresh connection: its status (0 when none came).
    private func status(_ server: Server, _ target: String) throws -> Int {
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 5)
        client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
        return client.readAnswer()?.status ?? 0
    }

    func testSlowClientsHeaderBombsManyConnectionsAndRandomRequests() throws {
        let server = try startServer()
        var figures: [String] = []

        // 1,000 slow clients, each holding half a request head, while others are served on time.
        var slow: [RawHTTPClient] = []
        let opened = try timed {
            for _ in 0..<1000 {
                let client = try RawHTTPClient(port: server.port, receiveTimeout: 5)
                client.send("GET /tiles/hel/1/0/0.png HTTP/1.1\r\nHost: x\r\nUser-Agent: slo")
                slow.append(client)
            }
        }
        var answered = 0
        let served = try timed {
            XCTAssertEqual(try status(server, "/health"), 200)
            answered = try (0..<4).map { try status(server, "/tiles/hel/2/\($0)/1.png") }.filter { $0 == 200 }.count
        }
        XCTAssertEqual(answered, 4, "served beside 1,000 slow clients")
        XCTAssertLessThan(served, 5)
        figures.append(String(format: "1,000 slow clients opened in %.2f s; 5 requests beside them served in %.2f s", opened, served))
        slow.forEach { $0.close() }
        slow = []

        // Header bombs: a 1 MiB field line, 10,000 fields, an endless request line.
        let bombs = try timed {
            for _ in 0..<20 {
                let client = try RawHTTPClient(port: server.port)
                client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Bomb: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n")
                XCTAssertEqual(client.readAnswer()?.status, 431)
                let many = try RawHTTPClient(port: server.port)
                many.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 10_000) + "\r\n")
                XCTAssertEqual(many.readAnswer()?.status, 431)
                let line = try RawHTTPClient(port: server.port)
                line.send("GET /" + String(repeating: "a", count: 1 << 20))
                XCTAssertEqual(line.readAnswer()?.status, 414)
            }
        }
        XCTAssertLessThan(bombs, 5)
        figures.append(String(format: "60 header bombs (1 MiB fields, 10,000 fields, 1 MiB request lines) refused in %.2f s", bombs))

        // 500 connections at once, each with 10 pipelined requests.
        var pipelined = 0
        let many = try timed {
            let clients = try (0..<500).map { _ in try RawHTTPClient(port: server.port, receiveTimeout: 10) }
            for client in clients { client.send(String(repeating: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: 10)) }
            for client in clients { for _ in 0..<10 where client.readAnswer()?.status == 200 { pipelined += 1 } }
        }
        XCTAssertEqual(pipelined, 5000)
        XCTAssertLessThan(many, 5)
        figures.append(String(format: "500 connections × 10 pipelined requests answered in %.2f s", many))

        // 10,000 random requests: each gets a status from the known set, and the server lives on.
        // Knuth's MMIX linear congruential generator, seeded, so a failure repeats; its high bits pick.
        var state: UInt64 = 38
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let pieces = ["/tiles/hel/", "/data/hel/", "/styles/hel/", "/fonts/hel/", "/map?", "/asset?id=", "/../", "%00", "%2e%2e/", "9", "-1", "@2x",
                      ".png", ".pbf", ".json", "static/", "1,2,3", "x", "?", "&", "=", "/", "\u{7f}", " ", "\r", "é"]
        let known: Set<Int> = [200, 204, 304, 400, 404, 405, 414, 431, 500, 501, 502, 503, 505]
        var statuses: [Int: Int] = [:]
        let random = try timed {
            var client = try RawHTTPClient(port: server.port)
            for _ in 0..<10_000 {
                let target = (0..<Int(next() % 8 + 1)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
                let method = ["GET", "HEAD", "POST", "G\u{1}T"][Int(next() % 4)]
                client.send("\(method) /\(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = client.readAnswer(head: method == "HEAD")
                statuses[answer?.status ?? 0, default: 0] += 1
                if answer == nil || answer?.headers["connection"] == "close" { client = try RawHTTPClient(port: server.port) }
            }
        }
        XCTAssertTrue(Set(statuses.keys).isSubset(of: known), "statuses: \(statuses)")
        XCTAssertLessThan(random, 30)
        figures.append(String(format: "10,000 random requests in %.2f s: ", random) + statuses.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))

        XCTAssertTrue(server.process.isRunning, "no crash")
        XCTAssertEqual(try status(server, "/health"), 200)
        let peak = server.peakMB
        XCTAssertLessThan(peak, 300, "peak resident memory")
        figures.append(String(format: "server peak resident memory %.0f MB", peak))
        print("hostile clients: " + figures.joined(separator: "; "))
    }
}
