import Foundation

/// A response body as HAR keeps it: UTF-8 text when it is text, base64 otherwise.
public struct HARContent: Codable, Sendable, Equatable {
    /// The decoded body's size in bytes.
    public var size: Int
    /// Its media type.
    public var mimeType: String
    /// The body (nil: not kept, as browsers do for some answers).
    public var text: String?
    /// `"base64"` when `text` is base64.
    public var encoding: String?

    /// `body` of `mimeType`, kept as text when it is UTF-8 text.
    public init(body: Data, mimeType: String) {
        size = body.count
        self.mimeType = mimeType
        let (text, encoding) = Self.textOrBase64(body, mimeType: mimeType)
        self.text = text
        self.encoding = encoding
    }

    /// The body's bytes: empty when none was kept, nil when `encoding` is base64 and `text` is not.
    public var data: Data? { text.map { Self.bytes($0, encoding: encoding) } ?? Data() }

    /// `body` as UTF-8 text when it is valid UTF-8 without control characters
    /// other than whitespace, else as base64 (whatever `mimeType` claims: a
    /// `text/plain` body of bytes would not survive a round trip as text).
    static func textOrBase64(_ body: Data, mimeType: String) -> (text: String, encoding: String?) {
        if let text = String(data: body, encoding: .utf8),
           !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" || $0.value == 0x7F }) {
            return (text, nil)
        }
        return (body.base64EncodedString(), "base64")
    }

    /// The bytes `text` stands for under `encoding`.
    static func bytes(_ text: String, encoding: String?) -> Data? {
        encoding?.lowercased() == "base64" ? Data(base64Encoded: text, options: .ignoreUnknownCharacters) : Data(text.utf8)
    }
}
