import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
@testable import URLSchemeServer

/// A `SchemeServer` on an ephemeral loopback port for one test, drained at its end.
final class ServerFixture {
    let server: SchemeServer
    let log = LogLines()

    init(environment: URLSchemeKitEnvironment, test: XCTestCase, styles: [String: Data] = [:], transport: HTTPServer.Transport = .platformDefault,
         configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configure(&configuration)
        let log = self.log
        server = SchemeServer(environment: environment, configuration: configuration, styles: styles, transport: transport) { line in
            log.lines.withLock { $0.append(line) }
        }
        try server.start()
        let server = self.server
        test.addTeardownBlock {
            let done = DispatchSemaphore(value: 0)
            server.drain { done.signal() }
            done.wait()
        }
    }

    var port: UInt16 { server.port }

    func url(_ target: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(target)")! }

    func client(receiveTimeout: TimeInterval = 10) throws -> RawHTTPClient { try RawHTTPClient(port: port, receiveTimeout: receiveTimeout) }

    /// One GET through a plain URLSession (no URLSchemeKit protocols), as another program would.
    func get(_ target: String, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url(target))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await ServerFixture.plainSession.data(for: request)
        return (data, response as! HTTPURLResponse)
    }

    static let plainSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// An environment without caches on disk (answers still kept in memory), with `renderers`.
    static func environment(assets: AssetImageSource? = nil, renderers: SchemeRenderers = SchemeRenderers(),
                            budget: ResourceBudget = ResourceBudget()) -> URLSchemeKitEnvironment {
        URLSchemeKitEnvironment(assets: assets, budget: budget, imageCache: QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0, directory: nil),
                                httpCache: nil, renderers: renderers)
    }
}

/// The access-log lines a server wrote.
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}
