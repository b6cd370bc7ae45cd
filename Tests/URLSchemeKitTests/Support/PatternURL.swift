import Foundation
import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// A test scheme: `pattern://?seed=7&size=1024&delay=0` renders `size`
/// deterministic bytes from `seed`, after `delay` milliseconds (cancellable).
struct PatternURL: SchemeURL {
    static let scheme = "pattern"
    static let parameterNames = ["seed", "size", "delay", "label"]

    var seed: Int
    var size = 1024
    var delay = 0
    var label: String?

    init(seed: Int, size: Int = 1024, delay: Int = 0, label: String? = nil) {
        self.seed = seed
        self.size = size
        self.delay = delay
        self.label = label
    }

    init(query: QueryReader) throws {
        seed = try query.int("seed", in: 0...Int(Int32.max)) ?? { throw URLParameterError(parameter: "seed", reason: "is required") }()
        size = try query.int("size", in: 0...(8 << 20)) ?? 1024
        delay = try query.int("delay", in: 0...10_000) ?? 0
        label = try query.string("label")
    }

    func write(to query: inout QueryWriter) {
        query.add("seed", seed)
        if size != 1024 { query.add("size", size) }
        if delay != 0 { query.add("delay", delay) }
        query.add("label", label)
    }

    /// The bytes a correct render of this URL has.
    var expectedBytes: Data { PatternRenderer.bytes(seed: seed, size: size) }
}

/// Renders pattern URLs, counting its calls and noticing cancellation.
final class PatternRenderer: Renderer {
    let renders = Atomic<Int>(0)
    let cancellationsSeen = Atomic<Int>(0)

    func render(_ request: PatternURL, in context: RenderContext) throws -> RenderedImage {
        let cancellation = context.cancellation
        renders.add(1, ordering: .relaxed)
        var waited = 0
        while waited < request.delay {
            if cancellation.isCancelled {
                cancellationsSeen.add(1, ordering: .relaxed)
                try cancellation.check()  // CancellationError, or the deadline's URLError
            }
            usleep(1000)
            waited += 1
        }
        return RenderedImage(data: Self.bytes(seed: request.seed, size: request.size), mimeType: "application/x-pattern")
    }

    static func bytes(seed: Int, size: Int) -> Data {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: size)
        for i in 0..<size {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}

/// The test scheme's protocol: parsing and the render call, nothing else.
final class PatternURLProtocol: SchemeURLProtocol {
    override class var schemes: Set<String> { [PatternURL.scheme] }

    override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: PatternURL(url: requestURL))
    }
}

/// The pattern scheme drawn by a renderer of its own, whatever the session's
/// environment: for a protocol driven without a session, or a session whose
/// `urlCache` is not the one `installURLSchemeKit` set.
final class StandalonePatternURLProtocol: SchemeURLProtocol {
    override class var schemes: Set<String> { [PatternURL.scheme] }

    override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        RenderWork(try PatternURL(url: requestURL), renderer: PatternRenderer())
    }
}

/// A session that knows only the pattern scheme, drawn by `renderer` within
/// `budget`, its answers kept in `cache` (under one partition, so sessions on
/// one cache directory share them).
func makePatternSession(cache: QueryKeyedURLCache?, renderer: PatternRenderer = PatternRenderer(),
                        budget: ResourceBudget = ResourceBudget(), renderQueue: RenderQueue = .shared) -> URLSession {
    var renderers = SchemeRenderers()
    renderers.set(renderer)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.installURLSchemeKit(URLSchemeKitEnvironment(budget: budget, renderQueue: renderQueue, imageCache: cache, httpCache: nil,
                                                              renderers: renderers, cachePartition: "pattern"))
    configuration.protocolClasses = [PatternURLProtocol.self]
    return URLSession(configuration: configuration)
}

extension XCTestCase {
    /// A fresh, empty directory under the temporary directory, removed when the test ends.
    func makeTemporaryDirectory(_ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("URLSchemeKitTests-\(name.filter(\.isLetter))-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
