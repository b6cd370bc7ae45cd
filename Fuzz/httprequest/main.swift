import Foundation
import URLSchemeServer

// libFuzzer entry for the HTTP/1.1 request-head parser of `urlscheme serve`.
// Every input must give an outcome without a crash, under small limits (so
// mutations reach them): a refusal has one of the statuses the server sends;
// a request is a GET or HEAD that consumed a part of the input ending in
// CRLF CRLF, whose head written out again parses to the same request; a
// head cut one byte short of its end never parses as a request.
let parser = HTTPRequestParser(limits: {
    var limits = HTTPRequestParser.Limits()
    limits.requestLine = 256
    limits.headerCount = 8
    limits.headSize = 1024
    return limits
}())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    switch parser.parse(bytes) {
    case .incomplete:
        precondition(bytes.count <= parser.limits.headSize + 2, "incomplete past the head limit")
    case .refused(let error):
        precondition([400, 405, 414, 431, 501, 505].contains(error.status), "status \(error.status)")
        precondition(!error.message.isEmpty && !error.message.contains("\n"), "a one-line message")
    case .request(let request, let consumed):
        precondition(consumed >= 4 && consumed <= bytes.count)
        precondition(Array(bytes[consumed - 4..<consumed]) == Array("\r\n\r\n".utf8), "a head ends with CRLF CRLF")
        precondition(request.method == "GET" || request.method == "HEAD")
        precondition(request.target.hasPrefix("/"))
        if case .request = parser.parse(bytes[0..<consumed - 1]) { preconditionFailure("a cut head parsed") }
        // Written out as the parser reads values: one Latin-1 byte per character.
        var text = "\(request.method) \(request.target) HTTP/1.\(request.minorVersion)\r\n"
        for (name, value) in request.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        let head = text.unicodeScalars.map { scalar -> UInt8 in
            precondition(scalar.value < 0x100, "a value holds a character no byte gives: \(scalar)")
            return UInt8(scalar.value)
        }
        guard case .request(let again, _) = parser.parse(head) else {
            preconditionFailure("the head written out again does not parse: \(text.debugDescription)")
        }
        precondition(again == request, "written out again: \(again) != \(request)")
    }
    return 0
}
