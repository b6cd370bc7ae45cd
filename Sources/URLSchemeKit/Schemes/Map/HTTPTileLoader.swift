import Foundation
import MapRendering
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches tiles from an HTTP(S) URL template (`https://tiles.example/{z}/{x}/{y}.png`)
/// through a URLSession of its own: a User-Agent on every request (tile
/// servers refuse anonymous clients), and an `ImageURLCache` as the tile cache.
///
/// It runs on the render queue, never on URLSession's shared work queue, so
/// waiting for an inner request cannot deadlock the outer one.
public final class HTTPTileLoader: TileLoading {
    /// The tile URL, with `{z}`, `{x}` and `{y}` where the tile's coordinates go.
    public let template: String
    private let session: URLSession
    private let timeout: TimeInterval

    /// - Parameters:
    ///   - template: the tile URL with `{z}`, `{x}` and `{y}`.
    ///   - userAgent: sent with every request; name your app and a contact.
    ///   - cache: where fetched tiles are kept (memory only by default).
    public init(template: String, userAgent: String, cache: ImageURLCache = ImageURLCache(memoryCapacity: 32 << 20, diskCapacity: 0),
                timeout: TimeInterval = 15) {
        self.template = template
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = cache
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    /// The bytes of one tile, from the cache or the server. Throws `URLError(.resourceUnavailable)` naming the tile and the reason.
    public func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        let text = coordinate.filling(template)
        guard let url = URL(string: text) else { throw MapTileError.unavailable(coordinate, "'\(text)' is not a URL") }
        let outcome = Mutex<Result<[UInt8], MapTileError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: URLRequest(url: url, cachePolicy: .returnCacheDataElseLoad)) { data, response, error in
            let result: Result<[UInt8], MapTileError>
            if let error {
                result = .failure(.unavailable(coordinate, "\(url.absoluteString): \(error.localizedDescription)"))
            } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                result = .failure(.unavailable(coordinate, "\(url.absoluteString) answered HTTP \(status)"))
            } else {
                result = .success(Array(data ?? Data()))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 1) == .success else {
            throw MapTileError.unavailable(coordinate, "\(url.absoluteString) did not answer within \(Int(timeout)) s")
        }
        return try outcome.withLock { $0 }?.get() ?? []
    }
}
