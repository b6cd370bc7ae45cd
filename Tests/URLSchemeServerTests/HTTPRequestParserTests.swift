import XCTest
@testable import URLSchemeServer

/// The request parser on its own: what RFC 9112 lets through and what it refuses.
final class HTTPRequestParserTests: XCTestCase {
    private let parser = HTTPRequestParser()

    private func parse(_ text: String) -> HTTPRequestParser.Outcome { parser.parse(Array(text.utf8)) }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> HTTPRequestError? {
        guard case .refused(let error) = parse(text) else {
            XCTFail("not refused: \(parse(text))", file: file, line: line)
            return nil
        }
        return error
    }

    func testAGetWithItsHeadersAndWhatItConsumed() {
        let text = "GET /map?latitude=1&longitude=2 HTTP/1.1\r\nHost: x\r\nIf-None-Match:  \"abc\" \r\n\r\nGET /next"
        guard case .request(let request, let consumed) = parse(text) else { return XCTFail("\(parse(text))") }
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/map")
        XCTAssertEqual(request.query, "latitude=1&longitude=2")
        XCTAssertEqual(request.header("if-none-match"), "\"abc\"", "OWS trimmed, name case-insensitive")
        XCTAssertEqual(consumed, text.utf8.count - "GET /next".utf8.count)
        XCTAssertTrue(request.keepsAlive)
    }

    /// Found by the fuzz target: obs-text bytes turned into U+FFFD grew the head
    /// threefold when written out again, past the size limit it had passed.
    func testObsTextInAValueIsKeptByteForByte() {
        var bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Note: a".utf8)
        bytes += [0xE6, 0xFF, 0xC9]
        bytes += Array("b\r\n\r\n".utf8)
        guard case .request(let request, _) = parser.parse(bytes) else { return XCTFail("\(parser.parse(bytes))") }
        let value = request.header("x-note") ?? ""
        XCTAssertEqual(value.unicodeScalars.map(\.value), [0x61, 0xE6, 0xFF, 0xC9, 0x62], "one Latin-1 character per byte")
    }

    func testIncompleteHeadsWaitAndAnAbsoluteTargetIsReducedToItsPath() {
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\n"), .incomplete)
        XCTAssertEqual(parse("GET / HTTP/1.1\r"), .incomplete)
        guard case .request(let request, _) = parse("HEAD http://example.com/poll?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(request.target, "/poll?q=1")
        guard case .request(let old, _) = parse("\r\nGET / HTTP/1.0\r\n\r\n") else { return XCTFail("one leading empty line is skipped; 1.0 needs no Host") }
        XCTAssertFalse(old.keepsAlive)
    }

    func testSmugglingPatternsAreRefused() {
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nContent-Length : 0\r\n\r\n")?.message,
                       "a header name is not a token (or has whitespace before its colon)")
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n folded\r\n\r\n")?.message, "a header line starts with whitespace (obs-fold is refused)")
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\rX: 1\r\n\r\n")?.message, "a bare CR in the request head (not followed by LF)")
        XCTAssertEqual(refusal("GET / HTTP/1.1\nHost: x\n\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\n\r\n")?.message, "an HTTP/1.1 request without Host")
        XCTAssertEqual(refusal("GET  / HTTP/1.1\r\nHost: x\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET /a\u{1}b HTTP/1.1\r\nHost: x\r\n\r\n")?.status, 400)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n")?.status, 400)
    }

    func testLimitsMethodsAndVersions() {
        let longLine = "GET /" + String(repeating: "a", count: 9000)
        XCTAssertEqual(refusal(longLine)?.status, 414, "refused before the line ends")
        let manyFields = "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X: 1\r\n", count: 101)
        XCTAssertEqual(refusal(manyFields)?.status, 431, "refused before the head ends")
        let bigHead = "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Long: " + String(repeating: "b", count: 1000) + "\r\n", count: 17)
        XCTAssertEqual(refusal(bigHead)?.status, 431)
        XCTAssertEqual(refusal("POST / HTTP/1.1\r\nHost: x\r\n\r\n")?.status, 405)
        XCTAssertEqual(refusal("BREW / HTTP/1.1\r\nHost: x\r\n\r\n")?.status, 501)
        XCTAssertEqual(refusal("GET / HTTP/2.0\r\nHost: x\r\n\r\n")?.status, 505)
        XCTAssertEqual(refusal("GET / HTTX/1.1\r\nHost: x\r\n\r\n")?.status, 400)
    }
}
