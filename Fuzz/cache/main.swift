import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

// libFuzzer entry for the cache's parsers. The input is read
//  - as a URL string: `CacheKey`'s fast path (`directKey`), whenever it
//    accepts the URL, must give URLComponents' key;
//  - as a cache entry file: `CacheEntryFile.decode` must return nil or an
//    entry, never trap; and an entry encoded from the input's bytes must
//    decode to the same body and headers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCache(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let text = String(decoding: data, as: UTF8.self)
    if let url = URL(string: text), let fast = CacheKey.directKey(url.absoluteString) {
        let general = CacheKey(components: url)?.rawValue
        precondition(fast == general, "CacheKey fast path '\(fast)' differs from URLComponents' '\(general ?? "nil")' for \(url.absoluteString)")
    }

    let key = CacheKey(url: URL(string: "map://?latitude=1&longitude=2")!)!
    _ = CacheEntryFile.decode(data, expecting: key)

    let url = URL(string: "map://?latitude=1&longitude=2")!
    let headers = ["Content-Type": String(decoding: data.prefix(16), as: UTF8.self), "X-Extra": "1"]
    if let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers) {
        let encoded = CacheEntryFile.encode(key: key, response: CachedURLResponse(response: response, data: data))
        let decoded = CacheEntryFile.decode(encoded, expecting: key)
        precondition(decoded?.data == data, "an encoded entry does not decode to its body")
        precondition((decoded?.response as? HTTPURLResponse)?.statusCode == 200, "an encoded entry loses its status")
        var damaged = encoded
        if !damaged.isEmpty {
            let index = damaged.startIndex + Int(count % damaged.count)
            damaged[index] ^= 0x5A
            _ = CacheEntryFile.decode(damaged, expecting: key)
        }
    }
    return 0
}
