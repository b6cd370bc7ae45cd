import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLProtocolClient that records every call, for driving a protocol
/// without a session (where a call after stopLoading would otherwise be fatal).
final class RecordingClient: NSObject, URLProtocolClient, Sendable {
    let events = Mutex<[String]>([])

    private func record(_ event: String) { events.withLock { $0.append(event) } }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) { record("redirect") }
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) { record("cachedResponseIsValid") }
    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) { record("response") }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { record("data \(data.count)") }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { record("finish") }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: Error) { record("fail \((error as? URLError)?.code.rawValue ?? 0)") }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) { record("challenge") }
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) { record("cancelChallenge") }
}
