import Foundation
import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// Sends this configuration's sessions' `http(s)` loads through `recorder`
    /// (``RecordingURLProtocol``, first in `protocolClasses`), and installs the
    /// package's schemes with `environment` carrying the recorder, so
    /// `map://`, `asset://` and the rest keep working beside it. The
    /// environment's HTTP cache is not used for `http(s)`: a cache would answer
    /// some requests without the recorder seeing them.
    public func installRecorder(_ recorder: HTTPRecorder,
                                environment: URLSchemeKitEnvironment = URLSchemeKitEnvironment { $0.imageCache = nil; $0.httpCache = nil }) {
        installURLSchemeKit(environment.attaching(recorder))
        let others = (protocolClasses ?? []).filter { $0 != HTTPCacheURLProtocol.self && $0 != RecordingURLProtocol.self }
        protocolClasses = [RecordingURLProtocol.self] + others
    }
}
