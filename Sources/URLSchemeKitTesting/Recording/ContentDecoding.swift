import Foundation
import ImageCodecs

/// Response bodies as recordings keep them: decoded. Linux's session hands a
/// gzip or deflate body over already decoded with its `Content-Encoding`
/// still set (docs/linux-url-loading.md, trap 15), while a HAR file written by
/// another tool, or a stub, may hold the encoded bytes. So a body is inflated
/// here (with ImageCodecs' inflater, bounded) only when its bytes are still
/// encoded, and the fields that describe the wire (`Content-Encoding`,
/// `Transfer-Encoding`, `Content-Length`) are replaced by the decoded body's length.
enum ContentDecoding {
    /// `body` decoded by `headers`' `Content-Encoding` when it still is encoded, and the headers to answer it with.
    static func decoded(_ body: Data, headers: [HARNameValue], limit: Int) throws -> (body: Data, headers: [HARNameValue]) {
        let coding = headers.first { $0.name.lowercased() == "content-encoding" }?.value.lowercased()
            .trimmingCharacters(in: .whitespaces) ?? ""
        var decoded = body
        let bytes = [UInt8](body.prefix(2))
        if coding == "gzip" || coding == "x-gzip", bytes == [0x1F, 0x8B] {
            decoded = Data(try Inflater.gzipDecompress([UInt8](body), limit: limit))
        } else if coding == "deflate", bytes.count == 2, bytes[0] & 0x0F == 8, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0 {
            decoded = Data(try Inflater.zlibDecompress([UInt8](body), limit: limit))
        }
        var fields = headers.filter { !["content-encoding", "transfer-encoding", "content-length"].contains($0.name.lowercased()) }
        fields.append(HARNameValue(name: "Content-Length", value: String(decoded.count)))
        return (decoded, fields)
    }
}
