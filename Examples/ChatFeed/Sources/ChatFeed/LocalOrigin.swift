import Foundation

/// A web server on 127.0.0.1 for the example to load from: python3's
/// http.server on a port the system picks (it sends Last-Modified, so the
/// HTTP cache stores what it serves). Stopped with SIGKILL.
final class LocalOrigin {
    let port: Int
    private let process = Process()

    init(serving directory: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 43210 (http://127.0.0.1:43210/) ..."
        var text = ""
        while !text.contains(" port ") || !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(text[range].dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "python3's http.server did not start: \(text)"])
        }
        self.port = port
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
