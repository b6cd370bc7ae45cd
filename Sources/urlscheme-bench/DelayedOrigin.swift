import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An origin on 127.0.0.1 that waits before it answers, standing for one a
/// user reaches over a real network: the tests' own origin
/// (`Tests/URLSchemeKitTests/Fixtures/http/origin_server.py`, python3),
/// serving one route whose body is `size` bytes of the repeating 0...255
/// pattern after `delay` seconds, for any query on its path.
final class DelayedOrigin {
    let url: URL
    let body: Data
    private let process: Process

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/URLSchemeKitTests/Fixtures/http/origin_server.py")

    init(delay: Double, size: Int, headers: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw BenchmarkError("the delayed origin (\(Self.script.path)) did not start")
        }
        url = URL(string: "http://127.0.0.1:\(port)/delayed")!
        body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
        var route = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/__route")!)
        route.httpMethod = "POST"
        route.httpBody = try JSONSerialization.data(withJSONObject: ["path": "/delayed", "status": 200, "headers": headers,
                                                                     "body": "", "body_size": size, "delay": delay])
        let done = DispatchSemaphore(value: 0)
        // nonisolated(unsafe): written by the one completion before `done` is signalled, read after the wait.
        nonisolated(unsafe) var failure: Error?
        URLSession(configuration: .ephemeral).dataTask(with: route) { _, _, error in
            failure = error
            done.signal()
        }.resume()
        done.wait()
        if let failure { throw failure }
    }

    /// Stops the process (SIGKILL: see the tests' `LoopbackFileServer` for why not SIGTERM).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
