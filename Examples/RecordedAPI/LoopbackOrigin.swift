import Foundation

/// A real web server on 127.0.0.1 serving `Origin/`: python3's http.server,
/// on a port the system picks, in a process of its own. It logs each request
/// on stderr, which is how the test counts what reached it. Stopped with
/// SIGKILL (docs/linux-url-loading.md: a process started off the main thread
/// ignores SIGTERM).
final class LoopbackOrigin {
    let url: URL
    private let process = Process()
    private let log: URL

    init() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Origin")
        log = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-api-origin-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 43210 (http://127.0.0.1:43210/) ..."
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"port \d+"#, options: .regularExpression), let port = Int(text[range].dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "python3's http.server did not start: \(text)"])
        }
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// How many requests reached the server (its log's request lines).
    var requestCount: Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"GET ") }.count
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }
}
