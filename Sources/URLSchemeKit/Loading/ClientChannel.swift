import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries one load's outcome from the render queue back to its client, on the
/// task's work queue, exactly once, never after `stopLoading()`.
struct ClientChannel: @unchecked Sendable {
    // @unchecked Sendable: `urlProtocol` and `client` (not Sendable) are used only
    // inside the block `finish` puts on `queue`, the task's serial work queue on
    // which URLSession itself calls the protocol; `state` admits one such block.
    private let urlProtocol: URLProtocol
    private let client: URLProtocolClient
    private let queue: DispatchQueue
    private let state: LoadingState

    init(urlProtocol: URLProtocol, client: URLProtocolClient, queue: DispatchQueue, state: LoadingState) {
        self.urlProtocol = urlProtocol
        self.client = client
        self.queue = queue
        self.state = state
    }

    /// The outcome of a load: a response with its whole body, or an error.
    enum Outcome {
        case loaded(URLResponse, Data)
        case failed(URLError)
    }

    /// Reports `outcome` from the work queue unless the load was stopped or already
    /// reported. The body goes in one `didLoad`: completion handlers and `data(for:)`
    /// on Linux keep only the last chunk they were given.
    func finish(_ outcome: Outcome) {
        queue.async { [self] in
            guard state.claimFinish() else { return }
            switch outcome {
            case let .loaded(response, data):
                // .notAllowed: the session never stores a custom protocol's response
                // anyway, and with .allowed it would buffer every body for nothing.
                client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
                client.urlProtocol(urlProtocol, didLoad: data)
                client.urlProtocolDidFinishLoading(urlProtocol)
            case let .failed(error):
                client.urlProtocol(urlProtocol, didFailWithError: error)
            }
        }
    }
}
