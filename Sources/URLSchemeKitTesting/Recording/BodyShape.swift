import Foundation

/// A request body in the form the body matcher compares: JSON re-serialised
/// with sorted keys, form fields sorted, multipart as its parts (each part's
/// headers sorted, its bytes), anything else as bytes. Two bodies that differ
/// only in key order, field order or multipart boundary compare equal.
enum BodyShape: Equatable {
    case json(Data)
    case form([String])
    case multipart([Part])
    case bytes(Data)

    /// One part of a multipart body.
    struct Part: Equatable {
        var headers: [String]
        var body: Data
    }

    init(_ request: RecordedRequest) {
        let type = (request.header("Content-Type") ?? "").lowercased()
        let body = request.body
        if type.contains("json") || (type.isEmpty && Self.looksLikeJSON(body)),
           let object = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed),
           let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]) {
            self = .json(canonical)
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            self = .form(Self.formFields(body))
        } else if type.hasPrefix("multipart/"), let boundary = Self.boundary(in: request.header("Content-Type") ?? ""),
                  let parts = Self.parts(body, boundary: boundary) {
            self = .multipart(parts)
        } else {
            self = .bytes(body)
        }
    }

    private static func looksLikeJSON(_ body: Data) -> Bool {
        guard let first = body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// `a=1&b=2` as decoded `name=value` strings, sorted.
    static func formFields(_ body: Data) -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { field in
            let decoded = field.replacingOccurrences(of: "+", with: " ")
            return decoded.removingPercentEncoding ?? decoded
        }.sorted()
    }

    /// The `boundary` parameter of a multipart content type.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// The parts between the boundaries; nil when the body is not multipart of that boundary.
    static func parts(_ body: Data, boundary: String) -> [Part]? {
        let delimiter = Data("--\(boundary)".utf8)
        var pieces: [Data] = []
        var start = body.startIndex
        while let found = body.range(of: delimiter, in: start..<body.endIndex) {
            pieces.append(body[start..<found.lowerBound])
            start = found.upperBound
        }
        guard pieces.count >= 2 else { return nil }
        // pieces[0] is the preamble; each part starts with CRLF and ends with CRLF before the next delimiter.
        return pieces.dropFirst().map { piece in
            var part = Data(piece)
            if part.starts(with: [13, 10]) { part.removeFirst(2) }
            if part.suffix(2) == Data([13, 10]) { part.removeLast(2) }
            guard let split = part.range(of: Data([13, 10, 13, 10])) else { return Part(headers: [], body: part) }
            let headers = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
                .components(separatedBy: "\r\n").map { $0.lowercased().trimmingCharacters(in: .whitespaces) }.sorted()
            return Part(headers: headers, body: Data(part[split.upperBound...]))
        }
    }
}
