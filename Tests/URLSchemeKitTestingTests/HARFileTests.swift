import Foundation
import XCTest
import URLSchemeKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HAR files on disk: read, written, replayed, and refused with the field named.
final class HARFileTests: XCTestCase {
    private func entry(_ method: String = "GET", _ url: String, status: Int = 200, body: String, headers: [HARNameValue] = [],
                       requestBody: Data? = nil, requestType: String = "application/json") -> HAREntry {
        HAREntry(startedDateTime: "2026-11-28T00:00:00.000Z", time: 12,
                 request: HARRequest(method: method, url: url, headers: [], body: requestBody.map { HARPostData(body: $0, mimeType: requestType) }),
                 response: HARResponse(status: status, headers: headers, content: HARContent(body: Data(body.utf8), mimeType: "text/plain")))
    }

    func testWritingIsStableSortedAndKeepsTextAsTextAndBytesAsBase64() throws {
        var bytes = entry("GET", "https://h.example/b", body: "")
        bytes.response.content = HARContent(body: Data([0xFF, 0x00, 0x10]), mimeType: "application/octet-stream")
        let file = HARFile(log: HARLog(entries: [entry("GET", "https://h.example/a", body: "héllo\n",
                                                       headers: [HARNameValue(name: "X-B", value: "2"), HARNameValue(name: "Content-Type", value: "text/plain")]), bytes]))
        let data = try HARWriter().data(file)
        XCTAssertEqual(try HARWriter().data(file), data)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains(#""text" : "héllo\n""#), text)
        XCTAssertTrue(text.contains(#""encoding" : "base64""#))
        XCTAssertTrue(text.contains(#""text" : "/wAQ""#))
        XCTAssertLessThan(text.range(of: "Content-Type")!.lowerBound, text.range(of: "X-B")!.lowerBound, "headers sorted by name")
        XCTAssertLessThan(text.range(of: #""cache""#)!.lowerBound, text.range(of: #""request""#)!.lowerBound, "keys sorted")
        let back = try HARReader().read(data)
        XCTAssertEqual(back.log.entries[1].response.content.data, Data([0xFF, 0x00, 0x10]))
        XCTAssertEqual(try HARWriter().data(back), data)
    }

    func testIdenticalRequestsAreAnsweredInRecordedOrderThenTheLastAgain() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("poll.har")
        try HARWriter().write(HARFile(log: HARLog(entries: [
            entry("GET", "https://h.example/job", body: "queued"),
            entry("GET", "https://h.example/job", body: "running"),
            entry("GET", "https://h.example/job", body: "done"),
        ])), to: file)
        let recorder = try HTTPRecorder(file: file, options: options(.replay))
        let session = recorder.makeSession()
        var seen: [String] = []
        for _ in 0..<4 { seen.append(try await load(session, "https://h.example/job").text) }
        XCTAssertEqual(seen, ["queued", "running", "done", "done"])

        var strict = options(.replay)
        strict.repeatsLastAnswer = false
        let once = try HTTPRecorder(file: file, options: strict)
        for _ in 0..<3 { _ = try await load(once.makeSession(), "https://h.example/job") }
        let error = await failure(once.makeSession(), URLRequest(url: URL(string: "https://h.example/job")!))
        XCTAssertTrue(error?.localizedDescription.contains("all used") == true, "\(String(describing: error))")
    }

    func testUnusedRecordingsCanFailTheTest() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("two.har")
        try HARWriter().write(HARFile(log: HARLog(entries: [entry("GET", "https://h.example/a", body: "a"),
                                                            entry("GET", "https://h.example/b", body: "b")])), to: file)
        var strict = options(.replay)
        strict.failsOnUnusedRecordings = true
        let recorder = try HTTPRecorder(file: file, options: strict)
        _ = try await load(recorder.makeSession(), "https://h.example/a")
        XCTAssertThrowsError(try recorder.finish()) { error in
            XCTAssertEqual(error as? HTTPRecorderError, .unusedRecordings(["log.entries[1] GET https://h.example/b"]))
        }
    }

    func testBodiesMatchAsFormFieldsMultipartPartsAndStreams() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("forms.har")
        let multipart = { (boundary: String, parts: [(String, String)]) -> Data in
            Data((parts.map { "--\(boundary)\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined() + "--\(boundary)--\r\n").utf8)
        }
        var form = entry("POST", "https://h.example/form", body: "form ok", requestBody: Data("b=2&a=1+2".utf8), requestType: "application/x-www-form-urlencoded")
        form.request.headers = [HARNameValue(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        var upload = entry("POST", "https://h.example/upload", body: "upload ok", requestBody: multipart("AAA", [("a", "1"), ("b", "2")]))
        upload.request.headers = [HARNameValue(name: "Content-Type", value: "multipart/form-data; boundary=AAA")]
        try HARWriter().write(HARFile(log: HARLog(entries: [form, upload])), to: file)
        var bodies = options(.replay)
        bodies.matchers = RequestMatcher.defaults + [.body]
        let recorder = try HTTPRecorder(file: file, options: bodies)
        let session = recorder.makeSession()

        var post = URLRequest(url: URL(string: "https://h.example/form")!)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBodyStream = InputStream(data: Data("a=1%202&b=2".utf8))
        let formAnswer = try await load(session, post)
        XCTAssertEqual(formAnswer.text, "form ok")
        XCTAssertEqual(recorder.requests.last?.bodyText, "a=1%202&b=2", "the body streamed is read")

        var upload2 = URLRequest(url: URL(string: "https://h.example/upload")!)
        upload2.httpMethod = "POST"
        upload2.setValue("multipart/form-data; boundary=\"ZZZ-other\"", forHTTPHeaderField: "Content-Type")
        upload2.httpBody = multipart("ZZZ-other", [("a", "1"), ("b", "2")])
        let uploaded = try await load(session, upload2)
        XCTAssertEqual(uploaded.text, "upload ok")

        upload2.httpBody = multipart("ZZZ-other", [("a", "1"), ("b", "3")])
        let error = await failure(session, upload2)
        XCTAssertTrue(error?.localizedDescription.contains("refused by body") == true, "\(String(describing: error))")
        _ = try? recorder.finish()
    }

    func testABrowsersGzipBodyHeldEncodedIsDecodedOnReplay() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("gzip.har")
        // "hello hello hello\n" gzipped (python3 -c 'import gzip,sys; sys.stdout.buffer.write(gzip.compress(b"hello hello hello\n", mtime=0))' | base64)
        let gzipped = "H4sIAAAAAAACA8tIzcnJV8hAkFwAO3yK3xIAAAA="
        let har = """
        {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "120"}, "pages": [], "entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 3.5, "_initiator": {"type": "script"},
           "request": {"method": "GET", "url": "https://h.example/greet", "httpVersion": "HTTP/2", "headers": [], "queryString": [],
                       "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2", "cookies": [], "redirectURL": "",
                        "headers": [{"name": "Content-Encoding", "value": "gzip"}, {"name": "Content-Type", "value": "text/plain"}],
                        "content": {"size": 18, "mimeType": "text/plain", "text": "\(gzipped)", "encoding": "base64"},
                        "headersSize": -1, "bodySize": 38},
           "cache": {}, "timings": {"send": 0, "wait": 3, "receive": 0.5}}]}}
        """
        try Data(har.utf8).write(to: file)
        let recorder = try HTTPRecorder(file: file, options: options(.replay))
        let loaded = try await load(recorder.makeSession(), "https://h.example/greet")
        XCTAssertEqual(loaded.text, "hello hello hello\n")
        XCTAssertNil(loaded.response?.value(forHTTPHeaderField: "Content-Encoding"))
        XCTAssertEqual(loaded.response?.value(forHTTPHeaderField: "Content-Length"), "18")
    }

    func testARecordingAnswersAfterItsRecordedTimeWhenAsked() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("slow.har")
        var slow = entry("GET", "https://h.example/slow", body: "late")
        slow.time = 400
        try HARWriter().write(HARFile(log: HARLog(entries: [slow])), to: file)
        func seconds(replaysLatency: Bool) async throws -> TimeInterval {
            var replay = options(.replay)
            replay.replaysLatency = replaysLatency
            let session = try HTTPRecorder(file: file, options: replay).makeSession()
            let start = Date()
            let loaded = try await load(session, "https://h.example/slow")
            XCTAssertEqual(loaded.text, "late")
            return Date().timeIntervalSince(start)
        }
        let delayed = try await seconds(replaysLatency: true)
        let immediate = try await seconds(replaysLatency: false)
        XCTAssertGreaterThanOrEqual(delayed, 0.4)
        XCTAssertLessThan(immediate, 0.4)
    }

    func testHostileFilesFailNamingTheField() throws {
        let reader = HARReader()
        let good = String(decoding: try HARWriter().data(HARFile(log: HARLog(entries: [entry("GET", "https://h.example/a", body: "x")]))), as: UTF8.self)
        func error(_ text: String, _ reader: HARReader = HARReader()) -> String {
            do {
                _ = try reader.read(Data(text.utf8))
                return "read"
            } catch {
                return String(describing: error)
            }
        }
        XCTAssertTrue(error(String(good.prefix(good.count / 2))).hasPrefix("the HAR file is not valid JSON"), error(String(good.prefix(good.count / 2))))
        XCTAssertEqual(error(good.replacingOccurrences(of: #""status" : 200"#, with: #""status" : "200""#)),
                       "log.entries[0].response.status has the wrong type: expected a number")
        XCTAssertEqual(error(good.replacingOccurrences(of: #""method" : "GET","#, with: "")), "log.entries[0].request.method is missing")
        XCTAssertEqual(error(good.replacingOccurrences(of: #""url" : "https://h.example/a""#, with: #""url" : "nowhere""#)),
                       #"log.entries[0].request.url: "nowhere" is not an absolute URL"#)
        XCTAssertEqual(error(#"{"log": {"version": "1.2", "entries": {}}}"#), "log.entries has the wrong type: expected an array")
        XCTAssertEqual(error(#"[1, 2]"#), "the top level has the wrong type: expected an object")
        XCTAssertEqual(error(good, HARReader(maximumBytes: 100)), "the HAR file is \(good.utf8.count) bytes, more than the limit of 100 (HARReader.maximumBytes)")
        let many = #"{"log": {"version": "1.2", "entries": ["# + Array(repeating: #"{"request": {"method": "GET", "url": "https://h/"}, "response": {"status": 200}}"#, count: 100_000).joined(separator: ",") + "]}}"
        let start = Date()
        XCTAssertEqual(error(many, reader), "log.entries: 100000 entries or more, more than the limit of 20000 (HARReader.maximumEntries)")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "refused before building entries (debug build)")
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("bad.har")
        try Data("{\"log\": ".utf8).write(to: file)
        XCTAssertThrowsError(try HTTPRecorder(file: file, options: options(.replay))) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("the recording \(file.path) cannot be read: the HAR file is not valid JSON"), "\(error)")
        }
    }
}

/// A large recording replays in time linear in its size (each request is compared with its own method and URL's entries).
final class LargeRecordingTests: XCTestCase {
    func testTwoThousandRecordedRequestsReplayInOrder() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("many.har")
        let count = 2_000
        let entries = (0..<count).map { index in
            HAREntry(startedDateTime: "", time: 1, request: HARRequest(method: "GET", url: "https://h.example/item?i=\(index)&v=1", headers: [], body: nil),
                     response: HARResponse(status: 200, headers: [], content: HARContent(body: Data("\(index)".utf8), mimeType: "text/plain")))
        }
        try HARWriter().write(HARFile(log: HARLog(entries: entries)), to: file)
        let recorder = try HTTPRecorder(file: file, options: options(.replay))
        let session = recorder.makeSession()
        let start = Date()
        for index in stride(from: count - 1, through: 0, by: -1) {
            let loaded = try await load(session, "https://h.example/item?v=1&i=\(index)")
            XCTAssertEqual(loaded.text, "\(index)")
        }
        let seconds = Date().timeIntervalSince(start)
        print("replayed \(count) requests from \(count) entries in \(String(format: "%.2f", seconds)) s (\(String(format: "%.0f", seconds / Double(count) * 1e6)) µs each, debug)")
        XCTAssertLessThan(seconds, 30)
        try recorder.finish()
    }
}
