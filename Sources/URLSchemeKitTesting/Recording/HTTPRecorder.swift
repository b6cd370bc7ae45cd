import Foundation
import Synchronization
import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records a test's HTTP traffic once, as a HAR 1.2 file, and replays it from
/// then on without the network; answers stubs set in code; lists what was
/// requested. One recorder per test: it lives in the test's sessions'
/// `URLSchemeKitEnvironment` (`URLSessionConfiguration.installRecorder(_:environment:)`),
/// nothing in process globals, so tests running in parallel never see each
/// other's recordings or stubs.
///
/// ```swift
/// let recorder = try HTTPRecorder(file: recordings.appendingPathComponent("users.har"))
/// recorder.stub(.get, "https://api.example/health", .status(204))
/// let session = recorder.makeSession()
/// let (data, _) = try await session.data(from: URL(string: "https://api.example/users/1")!)
/// ```
///
/// The mode (``RecordingMode``) comes from `URLSCHEMEKIT_RECORDING` when set,
/// else replay only when `CI` is set, else ``Options/mode``, else `.once`.
/// An unmatched request fails its load with `URLError(.resourceUnavailable)`
/// whose message names the nearest recorded requests, the matchers that refused
/// each, and how to record it; ``finish()`` throws the same messages, so the
/// test fails even when the code under test swallowed the error.
public final class HTTPRecorder: Sendable {
    /// How a recorder matches, redacts and replays.
    public struct Options: Sendable {
        /// The mode asked for in code (the environment variable and `CI` come first).
        public var mode: RecordingMode?
        /// The rules a recording must meet to answer a request (all of them).
        public var matchers = RequestMatcher.defaults
        /// What is kept off the disk.
        public var redaction = Redaction()
        /// When every recording of a request has answered once, the last answers again (else the request fails).
        public var repeatsLastAnswer = true
        /// Replays each recording after the time it took when recorded (at most 10 s).
        public var replaysLatency = false
        /// ``HTTPRecorder/finish()`` throws when a recording was never used.
        public var failsOnUnusedRecordings = false
        /// The largest response body recorded, in bytes (a larger one fails the load).
        public var maximumResponseBytes = 32 << 20
        /// The largest request body read, in bytes.
        public var maximumRequestBodyBytes = 16 << 20
        /// The limits the recording file is read under.
        public var reader = HARReader()
        /// The variables the mode is read from (the process's by default).
        public var environment = ProcessInfo.processInfo.environment

        /// The defaults.
        public init() {}
    }

    /// The recording file (nil: stubs only).
    public let file: URL?
    /// The mode in force.
    public let mode: RecordingMode
    /// Why that mode (the variable, `CI`, or the code).
    public let modeReason: String
    let options: Options
    private let state: Mutex<State>
    /// Serialises writes of the file, so the last write holds every entry.
    private let writing = Mutex(())
    /// Sends what is recorded (or passed through) to the origin: an inner
    /// session of its own, without this recorder's protocol (the loop guard).
    private let forwarder: HTTPForwarder
    /// Whether the matchers include the built-in method and URL ones, so only a request's bucket can match.
    private let usesBuckets: Bool

    private struct State {
        /// The recorded exchanges, redacted as on disk.
        var entries: [HAREntry]
        /// Each entry's request with placeholders put back, as matched.
        var requestsToMatch: [RecordedRequest?]
        /// The entries of each method and URL (query sorted), in recorded order:
        /// with the default matchers a request is compared with its own bucket
        /// only, not with every entry (10,000 entries replay in linear time).
        var buckets: [String: [Int]] = [:]

        /// Adds `entries`, as matched (`restore` puts placeholders back), used `uses` times each.
        mutating func append(_ entries: [HAREntry], restore: (HAREntry) -> HAREntry, uses count: Int) {
            for entry in entries {
                let request = RecordedRequest(restore(entry))
                if let request { buckets[Self.bucket(request), default: []].append(self.entries.count) }
                self.entries.append(entry)
                requestsToMatch.append(request)
                uses.append(count)
            }
        }

        static func bucket(_ request: RecordedRequest) -> String {
            request.method + " " + RequestMatcher.urlKey(request.url).joined(separator: "\u{1}")
        }
        /// How often each entry answered.
        var uses: [Int]
        var stubs: [Stub]
        var requests: [RecordedRequest] = []
        var unmatched: [String] = []
        var fileExisted: Bool
        /// Entries recorded since the file was last written.
        var unsaved = 0
    }

    private struct Stub {
        var method: HTTPMethod
        var url: URL
        var answer: StubAnswer
        var uses = 0
    }

    /// A recorder of `file` (nil: stubs only), read now when it exists.
    /// Throws ``HTTPRecorderError/invalidMode(_:)`` and, for a file that cannot
    /// be read, ``HTTPRecorderError/unreadableRecording(path:reason:)`` naming the field.
    public init(file: URL?, options: Options = Options()) throws {
        self.file = file
        self.options = options
        (mode, modeReason) = try RecordingMode.resolve(options.mode, environment: options.environment)
        if let token = options.redaction.refusedTokens.first { throw HTTPRecorderError.invalidPlaceholder(token) }
        var entries: [HAREntry] = []
        let exists = file.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        if let file, exists, mode != .recordAll {
            do {
                entries = try options.reader.read(contentsOf: file).log.entries
            } catch {
                throw HTTPRecorderError.unreadableRecording(path: file.path, reason: String(describing: error))
            }
        }
        let redaction = options.redaction
        var initial = State(entries: [], requestsToMatch: [], uses: [], stubs: [], fileExisted: exists)
        initial.append(entries, restore: redaction.restore, uses: 0)
        state = Mutex(initial)
        usesBuckets = ["method", "url"].allSatisfy { name in options.matchers.contains { $0.isBuiltIn && $0.name == name } }
        forwarder = HTTPForwarder(maximumResponseSize: options.maximumResponseBytes, spoolThreshold: options.maximumResponseBytes,
                                  spoolFolder: nil, clock: { Date() })
    }

    deinit {
        // A recorder dropped without finish() still keeps what it recorded
        // (best effort: deinit cannot throw; finish() and save() report errors).
        try? save()
        forwarder.invalidate()
    }

    /// Answers `method` requests to `url` (its query in any order) with
    /// `answer`, ahead of any recording; a later stub of the same request
    /// takes over. Returns the recorder, for chaining. A `url` that is not
    /// absolute answers nothing, and ``finish()`` throws naming it.
    @discardableResult
    public func stub(_ method: HTTPMethod, _ url: String, _ answer: StubAnswer = .status(200)) -> HTTPRecorder {
        guard let parsed = URL(string: url), parsed.scheme != nil else {
            state.withLock { $0.unmatched.append("stub(.\(method.rawValue.lowercased()), \"\(url)\"): not an absolute URL") }
            return self
        }
        state.withLock { $0.stubs.insert(Stub(method: method, url: parsed, answer: answer), at: 0) }
        return self
    }

    /// The recorder of the running test, set by the Swift Testing traits
    /// (`.recording`, `.stub`) or by `HTTPRecorder.$current.withValue(_:)`:
    /// a task-local value, so tests running in parallel each see their own.
    @TaskLocal public static var current: HTTPRecorder?

    /// Takes `other`'s stubs, behind this recorder's own (a `.stub` trait
    /// applied outside a `.recording` one).
    func adoptStubs(of other: HTTPRecorder) {
        let stubs = other.state.withLock { $0.stubs }
        state.withLock { $0.stubs += stubs }
    }

    /// Every request the recorder saw, in order (redirect hops included).
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The requests of `method` to `url` (query in any order), in order: for count, order and body assertions.
    public func requests(_ method: HTTPMethod, _ url: String) -> [RecordedRequest] {
        guard let url = URL(string: url) else { return [] }
        let key = RequestMatcher.urlKey(url)
        return requests.filter { method.accepts($0.method) && RequestMatcher.urlKey($0.url) == key }
    }

    /// The recorded exchanges as they are (or will be) on disk.
    public var entries: [HAREntry] { state.withLock { $0.entries } }

    /// A session whose `http(s)` loads go through this recorder (the
    /// package's schemes, `map://` and the rest, keep working in it).
    public func makeSession(configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        configuration.installRecorder(self)
        return URLSession(configuration: configuration)
    }

    /// Ends the test's use: throws ``HTTPRecorderError/unmatchedRequests(_:)``
    /// when a request went unanswered, and ``HTTPRecorderError/unusedRecordings(_:)``
    /// for recordings never used when ``Options/failsOnUnusedRecordings`` is set.
    /// Writes the recording first when something new was recorded (``save()``).
    public func finish() throws {
        try save()
        let (unmatched, unused) = state.withLock { state in
            (state.unmatched, state.entries.indices.filter { state.uses[$0] == 0 }
                .map { "log.entries[\($0)] \(state.entries[$0].request.method) \(state.entries[$0].request.url)" })
        }
        if !unmatched.isEmpty { throw HTTPRecorderError.unmatchedRequests(unmatched) }
        if options.failsOnUnusedRecordings, mode != .recordAll, mode != .passthrough, !unused.isEmpty {
            throw HTTPRecorderError.unusedRecordings(unused)
        }
    }

    // MARK: Loading

    /// What answers one request.
    enum Decision {
        case answer(Replay)
        case fail(URLError)
        case forward(record: Bool)
    }

    /// A response to give: the stub's or the recording's.
    struct Replay {
        var status: Int
        var headers: [HARNameValue]
        var body: Data
        var delay: TimeInterval = 0
        /// Bytes given before the connection drops (nil: the whole body).
        var dropAfter: Int?
        var error: URLError?
    }

    /// Answers `live`: from a stub, a recording, or the network (recording it
    /// when the mode says so), following redirects as a session would;
    /// `finish` runs once, on another queue.
    func load(_ live: RecordedRequest, outgoing: URLRequest, cookies: SessionCookies?, timeLimit: TimeInterval?,
              cancellation: RenderCancellation, finish: @escaping @Sendable (ClientChannel.Outcome) -> Void) {
        var current = live
        var delay: TimeInterval = 0
        for _ in 0...Self.maximumRedirects {
            switch decide(current) {
            case let .fail(error):
                return after(delay) { finish(.failed(error)) }
            case let .forward(record):
                var sending = outgoing
                sending.url = current.url
                sending.httpMethod = current.method
                sending.httpBodyStream = nil
                sending.httpBody = current.body.isEmpty ? nil : current.body
                let (request, current) = (sending, current)
                return after(delay) { [self] in
                    forwarder.forward(request, cookies: cookies, cancellation: cancellation, timeLimit: timeLimit) { [self] result in
                        switch result {
                        case let .failure(error):
                            finish(.failed(error))
                        case let .success(answer):
                            do {
                                finish(try received(answer, for: current, recording: record))
                            } catch {
                                finish(.failed(URLErrors.make(.cannotWriteToFile, String(describing: error), url: current.url, underlying: error)))
                            }
                        }
                    }
                }
            case let .answer(replay):
                delay += replay.delay
                if let error = replay.error { return after(delay) { finish(.failed(error)) } }
                if let next = Self.redirect(from: current, replay) {
                    current = next
                    continue
                }
                let outcome = Self.outcome(replay, url: current.url)
                return after(delay) { finish(outcome) }
            }
        }
        finish(.failed(URLErrors.make(.httpTooManyRedirects, "more than \(Self.maximumRedirects) redirects from \(live.url.absoluteString)", url: live.url)))
    }

    private static let maximumRedirects = 10
    private static let timerQueue = DispatchQueue(label: "URLSchemeKitTesting.HTTPRecorder.delay", attributes: .concurrent)

    private func after(_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        if delay > 0 { Self.timerQueue.asyncAfter(deadline: .now() + delay, execute: work) } else { Self.timerQueue.async(execute: work) }
    }

    /// The decision for `live`, noted in ``requests``.
    func decide(_ live: RecordedRequest) -> Decision {
        let found: (Stub?, Int?, [String]?) = state.withLock { state in
            state.requests.append(live)
            if let index = state.stubs.firstIndex(where: { $0.method.accepts(live.method) && RequestMatcher.urlKey($0.url) == RequestMatcher.urlKey(live.url) }) {
                state.stubs[index].uses += 1
                return (state.stubs[index], nil, nil)
            }
            if mode == .passthrough || (file != nil && mode == .recordAll) { return (nil, nil, nil) }
            if file == nil {
                let message = stubsMessage(live, stubs: state.stubs)
                state.unmatched.append(message)
                return (nil, nil, [message])
            }
            let scope = usesBuckets ? state.buckets[State.bucket(live)] ?? [] : Array(state.requestsToMatch.indices)
            let candidates = scope.filter { index in
                guard let recorded = state.requestsToMatch[index] else { return false }
                return options.matchers.allSatisfy { $0.matches(recorded, live) }
            }
            let chosen = candidates.first { state.uses[$0] == 0 } ?? (options.repeatsLastAnswer ? candidates.last : nil)
            if let chosen {
                state.uses[chosen] += 1
                return (nil, chosen, nil)
            }
            if mode == .newEpisodes || (mode == .once && !state.fileExisted) { return (nil, nil, nil) }
            let message = unmatchedMessage(live, state: state, allUsed: candidates.count)
            state.unmatched.append(message)
            return (nil, nil, [message])
        }
        switch found {
        case let (stub?, _, _):
            return Self.decision(stub.answer)
        case let (nil, index?, _):
            let entry = state.withLock { options.redaction.restore($0.entries[index]) }
            return .answer(replay(entry))
        case let (nil, nil, message?):
            return .fail(URLErrors.make(.resourceUnavailable, message[0], url: live.url))
        default:
            return .forward(record: file != nil && mode != .passthrough)
        }
    }

    private func replay(_ entry: HAREntry) -> Replay {
        let latency = options.replaysLatency ? min(max(entry.time, 0) / 1000, 10) : 0
        if let code = entry.response.error {
            return Replay(status: 0, headers: [], body: Data(), delay: latency,
                          error: URLErrors.make(URLError.Code(rawValue: code) ?? .unknown, "recorded failure (\(code)) of \(entry.request.url)", url: URL(string: entry.request.url)))
        }
        let body = entry.response.content.data ?? Data()
        let decoded = (try? ContentDecoding.decoded(body, headers: entry.response.headers, limit: options.maximumResponseBytes))
            ?? (body: body, headers: entry.response.headers)
        return Replay(status: entry.response.status, headers: decoded.headers, body: decoded.body, delay: latency)
    }

    private static func decision(_ answer: StubAnswer) -> Decision {
        let headers = { (fields: [String: String]) in fields.map { HARNameValue(name: $0.key, value: $0.value) } }
        switch answer.kind {
        case let .body(status, fields, data):
            return .answer(Replay(status: status, headers: headers(fields), body: data, delay: answer.delay))
        case let .file(url, status, fields):
            do {
                return .answer(Replay(status: status, headers: headers(fields), body: try Data(contentsOf: url), delay: answer.delay))
            } catch {
                return .fail(URLErrors.make(.fileDoesNotExist, "the stub's file \(url.path) cannot be read: \(error.localizedDescription)", url: url))
            }
        case let .redirect(location, status):
            return .answer(Replay(status: status, headers: [HARNameValue(name: "Location", value: location)], body: Data(), delay: answer.delay))
        case let .error(error):
            return .answer(Replay(status: 0, headers: [], body: Data(), delay: answer.delay, error: error))
        case let .drop(status, fields, data, bytes):
            return .answer(Replay(status: status, headers: headers(fields), body: data, delay: answer.delay, dropAfter: bytes))
        }
    }

    /// The request a redirect answer leads to, as a session sends it: `303`
    /// (and `301`/`302` after a `POST`) turn into a `GET` without a body.
    private static func redirect(from request: RecordedRequest, _ replay: Replay) -> RecordedRequest? {
        guard [301, 302, 303, 307, 308].contains(replay.status),
              let location = replay.headers.first(where: { $0.name.lowercased() == "location" })?.value,
              let next = URL(string: location, relativeTo: request.url)?.absoluteURL else { return nil }
        var following = request
        following.url = next
        if replay.status == 303 || (request.method == "POST" && replay.status <= 302) {
            following.method = "GET"
            following.body = Data()
        }
        return following
    }

    private static func outcome(_ replay: Replay, url: URL) -> ClientChannel.Outcome {
        var fields: [String: String] = [:]
        for field in replay.headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: replay.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            return .failed(URLErrors.make(.badServerResponse, "status \(replay.status) cannot be answered", url: url))
        }
        if let bytes = replay.dropAfter {
            return .interrupted(response, replay.body.prefix(bytes),
                                URLErrors.make(.networkConnectionLost, "the connection dropped after \(bytes) of \(replay.body.count) bytes (stub)", url: url))
        }
        return .loaded(response, replay.body)
    }

    // MARK: Recording

    /// The origin's `answer` to `live` as the client gets it; recorded (each
    /// redirect hop an entry of its own, redacted) and written when `recording`.
    private func received(_ answer: HTTPForwarder.Answer, for live: RecordedRequest, recording: Bool) throws -> ClientChannel.Outcome {
        let (body, headers) = try ContentDecoding.decoded(answer.body, headers: Self.fields(answer.response.allHeaderFields),
                                                          limit: options.maximumResponseBytes)
        if recording {
            var exchanges = answer.redirects.map { ($0, Data(), Self.fields($0.response.allHeaderFields)) }
            exchanges.append((answer, body, headers))
            let entries = exchanges.enumerated().map { index, exchange in
                options.redaction.redact(Self.entry(exchange.0, body: exchange.1, headers: exchange.2, requestBody: index == 0 ? live.body : Data()))
            }
            try state.withLock { state in
                // Checked now, so the load that fetched a secret fails (the entry is not kept);
                // each entry is checked once, not the whole recording per entry.
                try options.redaction.check(entries, firstIndex: state.entries.count)
                state.append(entries, restore: options.redaction.restore, uses: 1)
                state.unsaved += entries.count
            }
        }
        return Self.outcome(Replay(status: answer.response.statusCode, headers: headers, body: body), url: answer.response.url ?? live.url)
    }

    /// Writes the recording (every entry so far) when something was recorded
    /// since the last write, refusing while it holds a declared secret.
    ///
    /// Recording keeps entries in memory and writes the file here, which
    /// ``finish()`` (the test's end) and `deinit` call, not once per entry:
    /// rewriting the whole sorted file per entry made a long session's
    /// recording cost quadratic time, and an append-only layout would give up
    /// HAR 1.2 (one JSON document) and the sorted keys that make re-recordings
    /// diff cleanly. The write is an atomic replace, so a process that dies
    /// mid-recording leaves the previous file (or none), never half of one.
    public func save() throws {
        guard let file else { return }
        try writing.withLock { _ in
            let (entries, unsaved) = state.withLock { ($0.entries, $0.unsaved) }
            guard unsaved > 0 else { return }
            try options.redaction.check(entries)
            try HARWriter().write(HARFile(log: HARLog(entries: entries)), to: file)
            state.withLock { $0.unsaved -= unsaved }
        }
    }

    private static func entry(_ exchange: HTTPForwarder.Answer, body: Data, headers: [HARNameValue], requestBody: Data) -> HAREntry {
        let sent = exchange.request
        let requestHeaders = (sent.allHTTPHeaderFields ?? [:]).map { HARNameValue(name: $0.key, value: $0.value) }
        let type = sent.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream"
        let request = HARRequest(method: sent.httpMethod ?? "GET", url: sent.url?.absoluteString ?? "", headers: requestHeaders,
                                 body: requestBody.isEmpty ? nil : HARPostData(body: requestBody, mimeType: type))
        let mimeType = exchange.response.value(forHTTPHeaderField: "Content-Type") ?? ""
        let response = HARResponse(status: exchange.response.statusCode, headers: headers, content: HARContent(body: body, mimeType: mimeType))
        let milliseconds = (exchange.responseTime.timeIntervalSince(exchange.requestTime) * 1000).rounded()
        return HAREntry(startedDateTime: startedFormat.format(exchange.requestTime), time: max(0, milliseconds),
                        request: request, response: response)
    }

    private static let startedFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func fields(_ headers: [AnyHashable: Any]) -> [HARNameValue] {
        headers.compactMap { key, value in (key as? String).map { HARNameValue(name: $0, value: "\(value)") } }
    }

    // MARK: Failure messages

    /// Why no stub answers `live` (a recorder without a file): the stubs and what each differs in.
    private func stubsMessage(_ live: RecordedRequest, stubs: [Stub]) -> String {
        var lines = ["URLSchemeKitTesting: no stub answers \(live) (the recorder has no recording file)"]
        lines.append(stubs.isEmpty ? "  no stubs are set" : "  stubs:")
        for stub in stubs.prefix(5) {
            let refused = [stub.method.accepts(live.method) ? nil : "method",
                           RequestMatcher.urlKey(stub.url) == RequestMatcher.urlKey(live.url) ? nil : "url"].compactMap { $0 }
            lines.append("    \(stub.method.rawValue) \(stub.url.absoluteString): refused by \(refused.joined(separator: ", "))")
        }
        lines.append("  add one: recorder.stub(.\(live.method.lowercased()), \"\(live.url.absoluteString)\", ...)")
        return lines.joined(separator: "\n")
    }

    /// Why no recording answers `live`: the nearest recorded requests and the
    /// matchers that refused each, and how to record it.
    private func unmatchedMessage(_ live: RecordedRequest, state: State, allUsed: Int) -> String {
        var lines = ["URLSchemeKitTesting: no recording answers \(live)"]
        let where_ = file.map { $0.path } ?? "(none)"
        lines.append("  recording: \(where_) (mode \(mode.rawValue): \(modeReason))")
        if allUsed > 0 {
            lines.append("  its \(allUsed) recording(s) were all used, and Options.repeatsLastAnswer is off")
        } else if !state.fileExisted {
            lines.append("  the recording file does not exist")
        } else {
            let nearest = state.requestsToMatch.indices.compactMap { index -> (Int, [String])? in
                guard let recorded = state.requestsToMatch[index] else { return nil }
                return (index, options.matchers.filter { !$0.matches(recorded, live) }.map(\.name))
            }.sorted { ($0.1.count, $0.0) < ($1.1.count, $1.0) }.prefix(3)
            lines.append(nearest.isEmpty ? "  the recording holds no requests" : "  nearest recorded requests:")
            for (index, refused) in nearest {
                lines.append("    log.entries[\(index)] \(state.entries[index].request.method) \(state.entries[index].request.url): refused by \(refused.joined(separator: ", "))")
            }
        }
        lines.append("  to record it: run with \(RecordingMode.environmentVariable)=new_episodes (or Options.mode = .newEpisodes, without CI set), "
            + "or \(RecordingMode.environmentVariable)=all to record everything again")
        return lines.joined(separator: "\n")
    }
}
