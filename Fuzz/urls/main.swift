import Foundation
@testable import URLSchemeKit

// libFuzzer entry for the URL parsers of every scheme. The first byte picks
// the scheme (map, asset, avatar, poll), the rest is the query string. Every input
// must parse or throw a parameter error; a parsed value must survive its own
// URL (parsing `value.url` gives `value` back), as the typed builders promise.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchemeURLs(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let query = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch bytes[0] % 4 {
    case 0: check(MapURL.self, query)
    case 1: check(AssetURL.self, query)
    case 2: check(AvatarURL.self, query)
    default: check(PollURL.self, query)
    }
    return 0
}

func check<T: SchemeURL>(_ type: T.Type, _ query: String) {
    guard let url = URL(string: "\(T.scheme)://?\(query)") else { return }
    let value: T
    do {
        value = try T(url: url)
    } catch is URLParameterError {
        return
    } catch {
        preconditionFailure("\(T.self) threw \(error) for \(url)")
    }
    let again = try? T(url: value.url)
    precondition(again == value, "\(T.self) does not read back its own URL \(value.url) (from \(url))")
}
