import Foundation
import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers a session's `http(s)` loads through the ``HTTPRecorder`` its
/// environment carries (`URLSessionConfiguration.installRecorder(_:environment:)`
/// registers both): stubs, recordings, or the network through the recorder's
/// own inner session.
///
/// On Linux's URL Loading System (docs/linux-url-loading.md) it keeps to the
/// package's rules: the body is reported in one piece (trap 11), on the task's
/// work queue and once, never after `stopLoading()` (traps 4, 5: `ClientChannel`);
/// nothing is created or resumed on the work queue (trap 7: the recorder works
/// on queues of its own); redirects are followed by the recorder, never
/// reported (trap 8); a `401` with a challenge becomes an error at once (trap 16).
public final class RecordingURLProtocol: URLProtocol {
    private let loadingState = LoadingState()

    public override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    public override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    public override func startLoading() {
        guard let client, let cancellation = loadingState.start() else { return }
        let channel = ClientChannel(urlProtocol: self, client: client, state: loadingState)
        let (workQueue, session) = ClientChannel.internals(of: task)
        let configuration = session?.configuration
        guard let recorder = URLSchemeKitEnvironment.of(configuration)?.attachment as? HTTPRecorder else {
            channel.deliver(.failed(URLErrors.make(.unsupportedURL, "RecordingURLProtocol: the session has no recorder; "
                + "set it up with configuration.installRecorder(recorder)", url: request.url)))
            return
        }
        // The body is read here: a session hands it over as `httpBodyStream`,
        // which belongs to this request and cannot cross queues.
        let live: RecordedRequest
        do {
            live = try RecordedRequest(request, bodyLimit: recorder.options.maximumRequestBodyBytes)
        } catch {
            channel.deliver(.failed(URLErrors.converting(error, url: request.url)))
            return
        }
        var outgoing = HTTPCacheURLProtocol.outgoing(request, configuration)
        outgoing.httpBodyStream = nil
        recorder.load(live, outgoing: outgoing, cookies: SessionCookies(configuration), timeLimit: configuration?.timeoutIntervalForResource,
                      cancellation: cancellation) { outcome in
            channel.deliver(HTTPCacheURLProtocol.deliverable(outcome), on: workQueue)
        }
    }

    public override func stopLoading() {
        loadingState.stop()
    }
}
