import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKitTesting

/// Issue 40 (`URLSchemeKitTesting`): 10,000 requests recorded from nginx on
/// 127.0.0.1 and then replayed from the HAR file, per request (16 in
/// flight), side by side with the same loads answered by a plain in-memory
/// `URLProtocol` stub of our own (the least a stub can cost) and by nginx
/// itself through a plain session; and a 50 MB recording loaded by
/// `HTTPRecorder` in a child process (`recording-load-child`), so the
/// time and peak resident memory are the load's alone. No goals: the issue
/// asks for the figures.
struct RecordingBenchmarks: BenchmarkSuite {
    let name = "recording"
    let summary = "URLSchemeKitTesting: replaying 10,000 recorded requests against a stub and nginx; loading a 50 MB HAR"

    static let requests = 10_000
    static let bodySize = 1 << 10
    /// The stub's and the origin's bodies: `requests` distinct 1 KiB texts.
    static let bodies: [Data] = (0..<requests).map { index in
        Data(String(repeating: "item \(index) ", count: bodySize).utf8.prefix(bodySize))
    }

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let paths = Dictionary(uniqueKeysWithValues: Self.bodies.enumerated().map { ("items/\($0.offset).txt", $0.element) })
        let server = try NginxServer(root: context.workDirectory.appendingPathComponent("nginx-recording"), paths: paths)
        defer { server.stop() }
        let urls = (0..<Self.requests).map { URL(string: "http://127.0.0.1:\(server.port)/items/\($0).txt")! }
        let file = context.workDirectory.appendingPathComponent("replay-10000.har")
        var options = HTTPRecorder.Options()
        options.environment = [:]

        // Record: every request reaches nginx once and the file is written at finish().
        options.mode = .recordAll
        let recorder = try HTTPRecorder(file: file, options: options)
        let recording = recorder.makeSession()
        let recordStart = Stopwatch.now()
        try CacheBenchmarks.loadAll(urls, with: recording, expecting: Self.bodies, count: Self.requests)
        try recorder.finish()
        let recordSeconds = Stopwatch.now() - recordStart
        recording.finishTasksAndInvalidate()
        let fileSize = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0

        options.mode = .replay
        let replayer = try HTTPRecorder(file: file, options: options)
        let replaying = replayer.makeSession()
        let stubConfiguration = URLSessionConfiguration.ephemeral
        stubConfiguration.protocolClasses = [MemoryStubURLProtocol.self]
        let stub = URLSession(configuration: stubConfiguration)
        let plain = URLSessionConfiguration.ephemeral
        plain.urlCache = nil
        let origin = URLSession(configuration: plain)
        defer { [replaying, stub, origin].forEach { $0.finishTasksAndInvalidate() } }

        let rounds = max(3, context.iterations / 2)
        func perRequest(_ session: URLSession) throws -> Double {
            try Stopwatch.median(iterations: rounds) {
                try CacheBenchmarks.loadAll(urls, with: session, expecting: Self.bodies, count: Self.requests)
            } / Double(Self.requests)
        }
        let replay = try perRequest(replaying)
        let stubbed = try perRequest(stub)
        let loopback = try perRequest(origin)
        try replayer.finish()
        let inFlight = "\(CacheBenchmarks.inFlight) in flight"
        let loaded = try RecordingLoadBenchmark.row(context)
        let hostile = try RecordingLoadBenchmark.hostileRow(context)
        return [
            BenchmarkRow(name: "replay 10,000 recorded, 1 KiB, \(inFlight) (per request)", ours: replay, reference: stubbed,
                         referenceName: "in-memory URLProtocol stub", goal: nil, detail: "HAR \(fileSize >> 10) KiB"),
            BenchmarkRow(name: "replay 10,000 recorded, 1 KiB, \(inFlight) (per request)", ours: replay, reference: loopback,
                         referenceName: "nginx on 127.0.0.1", goal: nil),
            BenchmarkRow(name: "record 10,000 from nginx, 1 KiB, \(inFlight) (per request, one run, file written once)",
                         ours: recordSeconds / Double(Self.requests), reference: loopback, referenceName: "nginx on 127.0.0.1, not recorded", goal: nil),
            loaded,
            hostile,
        ]
    }
}

/// The cheapest stub a test could write: a `URLProtocol` answering each
/// `/items/N.txt` with the benchmark's body N from memory, synchronously.
final class MemoryStubURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "http" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let index = Int(url.deletingPathExtension().lastPathComponent),
              RecordingBenchmarks.bodies.indices.contains(index),
              let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain"]) else {
            client?.urlProtocol(self, didFailWithError: URLError(.fileDoesNotExist))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: RecordingBenchmarks.bodies[index])
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
