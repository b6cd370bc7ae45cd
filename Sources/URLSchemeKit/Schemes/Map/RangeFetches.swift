import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of an `HTTPRangeByteSource`: collects each answer,
/// cancelling one that grows past what was asked for.
final class RangeFetches: NSObject, URLSessionDataDelegate, Sendable {
    final class Fetch: Sendable {
        struct Outcome {
            var response: HTTPURLResponse?
            var bytes: [UInt8] = []
            var failure: String?
        }

        /// Bytes a 206 may carry.
        let limit: UInt64
        /// Bytes a 200 (the whole file) may carry; 0: a 200 is refused.
        let wholeLimit: Int
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex(Outcome())

        init(limit: UInt64, wholeLimit: Int) {
            self.limit = limit
            self.wholeLimit = wholeLimit
        }

        func fail(_ reason: String) {
            outcome.withLock { if $0.failure == nil { $0.failure = reason } }
        }
    }

    private let fetches = SessionTaskTable<Fetch>()

    /// The fetch `task`'s callbacks fill in.
    func begin(_ task: URLSessionTask, limit: UInt64, wholeLimit: Int) -> Fetch {
        let fetch = Fetch(limit: limit, wholeLimit: wholeLimit)
        fetches.add(fetch, for: task)
        return fetch
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let fetch = fetches.value(for: dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            fetch.fail("the answer is not HTTP")
            return completionHandler(.cancel)
        }
        fetch.outcome.withLock { $0.response = http }
        switch http.statusCode {
        case 206:
            break
        case 200:
            // The server ignored Range and sends the whole file.
            let length = response.expectedContentLength
            if fetch.wholeLimit == 0 || length > Int64(fetch.wholeLimit) {
                let size = length >= 0 ? "\(length) bytes" : "a body of unstated size"
                fetch.fail("the server ignores Range requests (it answered 200 with the whole file, \(size), instead of 206)"
                           + (fetch.wholeLimit > 0 ? "; archives over \(fetch.wholeLimit) bytes are read only from servers that support ranges" : ""))
                return completionHandler(.cancel)
            }
        default:
            fetch.fail("answered HTTP \(http.statusCode)")
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let fetch = fetches.value(for: dataTask) else { return }
        let overflow = fetch.outcome.withLock { outcome -> String? in
            let isWhole = outcome.response?.statusCode == 200
            let limit = isWhole ? UInt64(fetch.wholeLimit) : fetch.limit
            guard UInt64(outcome.bytes.count + data.count) <= limit else {
                return isWhole ? "the server ignores Range requests and sent more than \(limit) bytes of the whole file"
                    : "the server sent more than the \(limit) bytes asked for"
            }
            outcome.bytes.append(contentsOf: data)
            return nil
        }
        if let overflow {
            fetch.fail(overflow)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let fetch = fetches.remove(task) else { return }
        if let error { fetch.fail(error.localizedDescription) }
        fetch.done.signal()
    }
}
