import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The on-disk form of one cache entry, and its integrity check.
///
/// Layout (all integers little-endian): the prefix (magic `USKC`, version
/// byte, the body's length in 8 bytes), the body, then length-prefixed
/// fields: key, response URL, status code, MIME type, text encoding name,
/// header fields, string user-info entries (the HTTP cache's request and
/// response times), storage policy; then a 64-bit checksum combining the
/// prefix and fields' (`EntryChecksum`) with the body's.
///
/// The body comes before the fields so that a body spooled to a file as it
/// arrived (`SpooledBody`, whose file starts with room for the prefix)
/// becomes the entry file in place: the prefix is written over, the fields
/// and checksum appended, the file renamed. A large download is written to
/// disk once, and its checksum was taken as it arrived.
///
/// Reading checks every length against the bytes left and the checksum last,
/// so a truncated or corrupted file is refused (and the cache drops it)
/// instead of being served or crashing the reader.
enum CacheEntryFile {
    private static let magic: [UInt8] = Array("USKC".utf8)
    private static let version: UInt8 = 4
    /// Bytes before the body: magic, version and the body's length.
    static let prefixLength = magic.count + 1 + 8

    /// The file's bytes in one piece (for tests and the fuzz target; the
    /// cache writes `parts`).
    static func encode(key: CacheKey, response cached: CachedURLResponse) -> Data {
        parts(key: key, response: cached).reduce(into: Data()) { $0.append($1) }
    }

    /// The file as three pieces to write one after the other: the prefix, the
    /// body (the response's own `Data`, not a copy: a mapped body stays
    /// mapped) and the tail (fields and checksum).
    static func parts(key: CacheKey, response cached: CachedURLResponse) -> [Data] {
        [prefix(bodyLength: cached.data.count), cached.data,
         tail(key: key, response: cached, bodyChecksum: EntryChecksum(cached.data).finish())]
    }

    /// The bytes before a body of `bodyLength` bytes.
    static func prefix(bodyLength: Int) -> Data {
        var bytes = magic + [version]
        append(UInt64(bodyLength), width: 8, to: &bytes)
        return Data(bytes)
    }

    /// The bytes after the body: the fields, then the checksum of the whole
    /// file, given the body's own (`EntryChecksum` of `cached.data`).
    static func tail(key: CacheKey, response cached: CachedURLResponse, bodyChecksum: UInt64) -> Data {
        var bytes: [UInt8] = []
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
        var fields = EntryChecksum()
        fields.add(prefix(bodyLength: cached.data.count))
        fields.add(bytes)
        append(combined(fields: fields.finish(), body: bodyChecksum), width: 8, to: &bytes)
        return Data(bytes)
    }

    private static func combined(fields: UInt64, body: UInt64) -> UInt64 {
        (fields << 17 | fields >> 47) ^ body
    }

    /// The entry, or nil when the file is not a complete, intact entry for `key`.
    static func decode(_ data: Data, expecting key: CacheKey) -> CachedURLResponse? {
        data.withUnsafeBytes { raw -> CachedURLResponse? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= prefixLength + 8 else { return nil }
            let fieldsEnd = bytes.count - 8
            var reader = Reader(bytes: UnsafeBufferPointer(rebasing: bytes[..<fieldsEnd]))
            let stored = UInt64(littleEndianBytes: bytes[fieldsEnd...])
            guard reader.take(magic.count).map(Array.init) == magic,
                  reader.integer(width: 1) == UInt64(version),
                  let length = reader.integer(width: 8),
                  let body = reader.take(Int(clamping: length)) else { return nil }
            let fieldsStart = reader.offset
            guard reader.string() == key.rawValue,
                  let urlText = reader.string(), let url = URL(string: urlText),
                  let status = reader.integer(width: 2),
                  let mimeType = reader.string(),
                  let encoding = reader.string(),
                  let headerCount = reader.integer(width: 4) else { return nil }
            guard let headers = reader.stringPairs(count: headerCount),
                  let infoCount = reader.integer(width: 4), let info = reader.stringPairs(count: infoCount) else { return nil }
            guard let policyByte = reader.integer(width: 1), policyByte <= 1, reader.isAtEnd else { return nil }
            var fields = EntryChecksum()
            fields.add(UnsafeRawBufferPointer(rebasing: raw[..<prefixLength]))
            fields.add(UnsafeRawBufferPointer(rebasing: raw[fieldsStart..<fieldsEnd]))
            guard combined(fields: fields.finish(), body: EntryChecksum(UnsafeRawBufferPointer(body)).finish()) == stored else { return nil }
            let response: URLResponse
            if status != 0, let http = HTTPURLResponse(url: url, statusCode: Int(status), httpVersion: "HTTP/1.1", headerFields: headers) {
                response = http
            } else {
                response = URLResponse(url: url, mimeType: mimeType.isEmpty ? nil : mimeType,
                                       expectedContentLength: body.count,
                                       textEncodingName: encoding.isEmpty ? nil : encoding)
            }
            return CachedURLResponse(response: response, data: bodyData(body, in: data), userInfo: info.isEmpty ? nil : info,
                                     storagePolicy: policyByte == 0 ? .allowed : .allowedInMemoryOnly)
        }
    }

    /// The body's bytes: copied when small, else the file's own bytes shared
    /// (`file` stays alive as long as the body does), so a mapped entry is
    /// never copied into memory.
    private static func bodyData(_ body: UnsafeBufferPointer<UInt8>, in file: Data) -> Data {
        guard body.count >= 64 << 10, let base = body.baseAddress else { return Data(body) }
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: body.count,
                    deallocator: .custom { _, _ in withExtendedLifetime(file) {} })
    }

    /// The key stored in the entry file at `path`, read without reading the
    /// body (nil when the file is not an entry of this version). For purges,
    /// which look at every file's key; what it names is checked again by
    /// `decode` before anything is served.
    static func storedKey(inFile path: String) -> CacheKey? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: prefixLength), head.count == prefixLength,
              Array(head.prefix(magic.count)) == magic, head[head.startIndex + magic.count] == version,
              let size = try? handle.seekToEnd() else { return nil }
        let bodyLength = head.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard bodyLength <= size - UInt64(prefixLength), (try? handle.seek(toOffset: UInt64(prefixLength) + bodyLength)) != nil,
              let count = try? handle.read(upToCount: 4), count.count == 4 else { return nil }
        let length = count.reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length <= 1 << 20, let text = try? handle.read(upToCount: length), text.count == length,
              let key = String(data: text, encoding: .utf8) else { return nil }
        return CacheKey(rawValue: key)
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
