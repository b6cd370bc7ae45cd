import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The on-disk form of one cache entry, and its integrity check.
///
/// Layout (all integers little-endian): magic `USKC`, version byte, then
/// length-prefixed fields: key, response URL, status code, MIME type, text
/// encoding name, header fields, string user-info entries (the HTTP cache's
/// request and response times), storage policy, body; then a 64-bit checksum
/// of everything before it (the head's and the body's checksums combined, so
/// a body is written as it is, never copied next to its head first). Reading checks every length against the bytes left
/// and the checksum last, so a truncated or corrupted file is refused (and the
/// cache drops it) instead of being served or crashing the reader.
enum CacheEntryFile {
    private static let magic: [UInt8] = Array("USKC".utf8)
    private static let version: UInt8 = 3

    /// The file's bytes in one piece (for tests and the fuzz target; the
    /// cache writes `parts`).
    static func encode(key: CacheKey, response cached: CachedURLResponse) -> Data {
        parts(key: key, response: cached).reduce(into: Data()) { $0.append($1) }
    }

    /// The file as three pieces to write one after the other: the head, the
    /// body (the response's own `Data`, not a copy: a spooled body stays a
    /// mapped file) and the checksum.
    static func parts(key: CacheKey, response cached: CachedURLResponse) -> [Data] {
        var bytes: [UInt8] = magic + [version]
        let response = cached.response
        let http = response as? HTTPURLResponse
        append(string: key.rawValue, to: &bytes)
        append(string: response.url?.absoluteString ?? "", to: &bytes)
        append(UInt64(http?.statusCode ?? 0), width: 2, to: &bytes)
        append(string: response.mimeType ?? "", to: &bytes)
        append(string: response.textEncodingName ?? "", to: &bytes)
        let headers = (http?.allHeaderFields as? [String: String] ?? [:]).sorted { $0.key < $1.key }
        append(UInt64(headers.count), width: 4, to: &bytes)
        for (name, value) in headers {
            append(string: name, to: &bytes)
            append(string: value, to: &bytes)
        }
        let info = (cached.userInfo as? [String: String] ?? [:]).sorted { $0.key < $1.key }
        append(UInt64(info.count), width: 4, to: &bytes)
        for (name, value) in info {
            append(string: name, to: &bytes)
            append(string: value, to: &bytes)
        }
        bytes.append(cached.storagePolicy == .allowed ? 0 : 1)
        append(UInt64(cached.data.count), width: 8, to: &bytes)
        let sum = bytes.withUnsafeBufferPointer { head in
            cached.data.withUnsafeBytes { body in combined(head: head, body: body.bindMemory(to: UInt8.self)) }
        }
        return [Data(bytes), cached.data, Data((0..<8).map { UInt8(truncatingIfNeeded: sum >> (8 * UInt64($0))) })]
    }

    private static func combined(head: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let headSum = checksum(head)
        return (headSum << 17 | headSum >> 47) ^ checksum(body)
    }

    /// The entry, or nil when the file is not a complete, intact entry for `key`.
    static func decode(_ data: Data, expecting key: CacheKey) -> CachedURLResponse? {
        data.withUnsafeBytes { raw -> CachedURLResponse? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= magic.count + 1 + 8 else { return nil }
            let bodyEnd = bytes.count - 8
            var reader = Reader(bytes: UnsafeBufferPointer(rebasing: bytes[..<bodyEnd]))
            let stored = UInt64(littleEndianBytes: bytes[bodyEnd...])
            guard reader.take(magic.count).map(Array.init) == magic,
                  reader.integer(width: 1) == UInt64(version),
                  reader.string() == key.rawValue,
                  let urlText = reader.string(), let url = URL(string: urlText),
                  let status = reader.integer(width: 2),
                  let mimeType = reader.string(),
                  let encoding = reader.string(),
                  let headerCount = reader.integer(width: 4) else { return nil }
            guard let headers = reader.stringPairs(count: headerCount),
                  let infoCount = reader.integer(width: 4), let info = reader.stringPairs(count: infoCount) else { return nil }
            guard let policyByte = reader.integer(width: 1), policyByte <= 1,
                  let length = reader.integer(width: 8) else { return nil }
            let head = UnsafeBufferPointer(rebasing: bytes[..<reader.offset])
            guard let body = reader.take(Int(clamping: length)), reader.isAtEnd,
                  combined(head: head, body: body) == stored else { return nil }
            let response: URLResponse
            if status != 0, let http = HTTPURLResponse(url: url, statusCode: Int(status), httpVersion: "HTTP/1.1", headerFields: headers) {
                response = http
            } else {
                response = URLResponse(url: url, mimeType: mimeType.isEmpty ? nil : mimeType,
                                       expectedContentLength: body.count,
                                       textEncodingName: encoding.isEmpty ? nil : encoding)
            }
            return CachedURLResponse(response: response, data: Data(body), userInfo: info.isEmpty ? nil : info,
                                     storagePolicy: policyByte == 0 ? .allowed : .allowedInMemoryOnly)
        }
    }

    /// The key stored at the start of the entry file at `path`, read without
    /// reading the rest (nil when the file is not an entry of this version).
    /// For purges, which look at every file's key; what it names is checked
    /// again by `decode` before anything is served.
    static func storedKey(inFile path: String) -> CacheKey? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let fixed = magic.count + 1 + 4
        guard let head = try? handle.read(upToCount: fixed), head.count == fixed,
              Array(head.prefix(magic.count)) == magic, head[head.startIndex + magic.count] == version else { return nil }
        let length = head.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length <= 1 << 20, let text = try? handle.read(upToCount: length), text.count == length,
              let key = String(data: text, encoding: .utf8) else { return nil }
        return CacheKey(rawValue: key)
    }

    /// A 64-bit FNV-1a-style hash over 8-byte words: not cryptographic, but any
    /// truncation or flipped byte changes it with overwhelming probability, at
    /// several GB/s.
    private static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        let words = bytes.count / 8
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for i in 0..<words {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                hash = ((hash ^ word) &* prime)
                hash ^= hash >> 29
            }
        }
        for i in (words * 8)..<bytes.count {
            hash = (hash ^ UInt64(bytes[i])) &* prime
        }
        return hash ^ (hash >> 32)
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for i in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    private static func append(string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        append(UInt64(utf8.count), width: 4, to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// A bounds-checked cursor: every read returns nil rather than run past the end.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func integer(width: Int) -> UInt64? {
            take(width).map { UInt64(littleEndianBytes: $0[...]) }
        }

        /// `count` name/value string pairs; nil if the bytes run out first.
        mutating func stringPairs(count: UInt64) -> [String: String]? {
            guard count <= UInt64(bytes.count - offset) / 8 else { return nil }
            var pairs: [String: String] = [:]
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                pairs[name] = value
            }
            return pairs
        }

        mutating func string() -> String? {
            guard let length = integer(width: 4), let utf8 = take(Int(length)) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}

private extension UInt64 {
    init(littleEndianBytes bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        var value: UInt64 = 0
        for (i, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(i)) }
        self = value
    }
}
