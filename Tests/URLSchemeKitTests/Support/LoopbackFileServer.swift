import Foundation
import XCTest

/// A real HTTP server on 127.0.0.1 for tests: python3's http.server serving a
/// directory, logging each request's path and User-Agent; with `ranges`, it
/// answers a `Range: bytes=a-b` request with a 206 of those bytes (as nginx
/// and object stores do; http.server alone sends the whole file). Stopped when the
/// test ends, with SIGKILL: a process started from a test's async body (a
/// dispatch worker thread) inherits that thread's blocked signals, so
/// `terminate()`'s SIGTERM would stay pending forever and `waitUntilExit()`
/// would hang (pinned in `PlatformTrapTests`).
final class LoopbackFileServer {
    let root: URL
    let port: Int
    private let process: Process
    private let log: URL

    /// Starts serving `root` and waits until the port answers.
    init(root: URL, ranges: Bool = false, test: XCTestCase) throws {
        self.root = root
        log = root.appendingPathComponent(".requests.log")
        let script = """
            import http.server, sys, functools, time, os
            log = open(sys.argv[3], "a", buffering=1)
            class Handler(http.server.SimpleHTTPRequestHandler):
                def do_GET(self):
                    log.write(self.path + "\\t" + str(self.headers.get("User-Agent")) + "\\n")
                    if self.path.startswith("/slow/"):  # a server that never answers in time
                        time.sleep(30)
                        return
                    asked = self.headers.get("Range", "")
                    path = self.translate_path(self.path)
                    if sys.argv[4] == "ranges" and asked.startswith("bytes=") and os.path.isfile(path):
                        with open(path, "rb") as f:
                            data = f.read()
                        first, _, last = asked[6:].partition("-")
                        first, last = int(first), min(int(last), len(data) - 1)
                        self.send_response(206)
                        self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, len(data)))
                        self.send_header("Content-Length", str(last + 1 - first))
                        self.send_header("ETag", '"%x-%x"' % (int(os.path.getmtime(path)), len(data)))
                        self.end_headers()
                        self.wfile.write(data[first:last + 1])
                        return
                    super().do_GET()
                def log_message(self, *args):
                    pass
            handler = functools.partial(Handler, directory=sys.argv[2])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            with open(sys.argv[1] + ".part", "w") as f:
                f.write(str(server.server_address[1]))
            os.rename(sys.argv[1] + ".part", sys.argv[1])
            server.serve_forever()
            """
        // The server binds a port the kernel picks and writes it to a file:
        // a port chosen here could be taken by another process, or, inside
        // the ephemeral range, "answer" by connecting to itself (a failure CI
        // met once: the probe succeeded, the real load could not connect).
        let portFile = root.appendingPathComponent(".port-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, portFile.path, root.path, log.path, ranges ? "ranges" : "whole"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where process.isRunning {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text), Self.answers(port: port) {
                try? FileManager.default.removeItem(at: portFile)
                self.port = port
                self.process = process
                test.addTeardownBlock { Self.stop(process) }
                return
            }
            usleep(20_000)
        }
        Self.stop(process)
        throw NSError(domain: "LoopbackFileServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "python3's http.server did not start in 10 s"])
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Each request so far: path and User-Agent.
    var requests: [(path: String, userAgent: String)] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }
    }

    private static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
