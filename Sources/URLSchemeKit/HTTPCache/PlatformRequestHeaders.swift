import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The request fields Linux's HTTP protocol adds when a request has none of
/// its own (trap 15): `User-Agent` (`<process> (unknown version)
/// curl/<version>`) and `Accept-Language` (the current locale's language).
/// The HTTP cache writes them into the forwarded request itself, with the
/// values the platform would have sent, so that what `Vary` compares is what
/// the origin saw: two programs sharing a cache directory send different
/// agents, and each must get its own variant. The values are pinned against
/// what a plain session sends (`PlatformTrapTests`).
enum PlatformRequestHeaders {
    /// The fields and values added, in order; empty where the platform adds none we know of.
    static let defaults: [(name: String, value: String)] = {
        #if canImport(FoundationNetworking)
        var fields = [(name: "User-Agent", value: userAgent)]
        if let language = Locale.current.language.languageCode?.identifier {
            fields.append((name: "Accept-Language", value: language))
        }
        return fields
        #else
        // Apple's URLSession adds fields of its own that nothing here can know.
        return []
        #endif
    }()

    /// Adds each default field `request` lacks.
    static func addMissing(to request: inout URLRequest) {
        for field in defaults where request.value(forHTTPHeaderField: field.name) == nil {
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
    }

    #if canImport(FoundationNetworking)
    /// FoundationNetworking's agent string. The libcurl version in it is read
    /// from the libcurl the process has loaded (FoundationNetworking links it),
    /// through `curl_version()`, whose text starts `libcurl/X.Y.Z`.
    private static var userAgent: String {
        let name = ProcessInfo.processInfo.processName
        guard let version = libcurlVersion() else { return "\(name) (unknown version)" }
        return "\(name) (unknown version) curl/\(version)"
    }

    private static func libcurlVersion() -> String? {
        #if canImport(Glibc)
        // RTLD_DEFAULT (a null handle): search every object the process has loaded.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "curl_version") else { return nil }
        typealias CurlVersion = @convention(c) () -> UnsafePointer<CChar>?
        guard let text = unsafeBitCast(symbol, to: CurlVersion.self)() else { return nil }
        let description = String(cString: text)
        guard description.hasPrefix("libcurl/") else { return nil }
        return String(description.dropFirst("libcurl/".count).prefix { $0 != " " })
        #else
        return nil
        #endif
    }
    #endif
}
