import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries one load's outcome to its client on the task's work queue, exactly
/// once, never after `stopLoading()`.
package struct ClientChannel: @unchecked Sendable {
    // @unchecked Sendable: `urlProtocol` and `client` (not Sendable) are used only
    // in `deliver`, which runs on the task's serial work queue (where URLSession
    // itself calls the protocol): called directly from `startLoading()`, or hopped
    // there by `deliver(_:on:)`. `state` lets one delivery through.
    private let urlProtocol: URLProtocol
    private let client: URLProtocolClient
    private let state: LoadingState

    package init(urlProtocol: URLProtocol, client: URLProtocolClient, state: LoadingState) {
        self.urlProtocol = urlProtocol
        self.client = client
        self.state = state
    }

    /// The outcome of a load: a response with its whole body, or an error.
    package enum Outcome {
        case loaded(URLResponse, Data)
        case failed(URLError)
        /// A response and part of its body, then an error: a connection dropped mid-body.
        case interrupted(URLResponse, Data, URLError)
    }

    /// Reports `outcome` unless the load was stopped or already reported. Call on
    /// the task's work queue. The body goes in one `didLoad`: completion handlers
    /// and `data(for:)` on Linux keep only the last chunk they were given.
    package func deliver(_ outcome: Outcome) {
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
        case let .interrupted(response, data, error):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !data.isEmpty { client.urlProtocol(urlProtocol, didLoad: data) }
            client.urlProtocol(urlProtocol, didFailWithError: error)
        }
    }

    /// The task's serial work queue, where `startLoading()` runs and client
    /// calls belong (a serial queue of our own when it cannot be found: another
    /// toolchain, or a protocol driven without a session), and the task's
    /// session, read in one pass.
    package static func internals(of task: URLSessionTask?) -> (workQueue: DispatchQueue, session: URLSession?) {
        let found = task.map(SessionTaskInternals.read)
        return (found?.workQueue ?? fallbackQueue, found?.session)
    }

    private static let fallbackQueue = DispatchQueue(label: "URLSchemeKit.ClientChannel.fallback")

    /// Reports `outcome` from another thread: hops to `queue`, the task's work queue.
    package func deliver(_ outcome: Outcome, on queue: DispatchQueue) {
        queue.async { deliver(outcome) }
    }
}
