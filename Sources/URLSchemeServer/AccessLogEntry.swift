import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line of the access log: a JSON object per answered request, keys in
/// a fixed order, e.g.
/// `{"time":"2026-11-28T21:00:00.123Z","peer":"127.0.0.1","method":"GET","target":"/map?…","route":"map","status":200,"bytes":5120,"ms":3.2}`.
/// Written by hand, not by `JSONEncoder` and a date format style: those two
/// were a sixth of a cached answer's time.
struct AccessLogEntry {
    var time: String
    var peer: String
    var method: String
    var target: String
    var route: String
    var status: Int
    var bytes: Int
    var ms: Double

    /// The longest target written: the rest is cut (a 8 KiB line per request is no log).
    static let targetLimit = 1024

    /// The entry as one line of JSON, without the newline.
    var line: String {
        var text = "{\"time\":"
        text.reserveCapacity(128 + target.utf8.count)
        Self.appendQuoted(time, to: &text)
        text += ",\"peer\":"
        Self.appendQuoted(peer, to: &text)
        text += ",\"method\":"
        Self.appendQuoted(method, to: &text)
        text += ",\"target\":"
        Self.appendQuoted(target, to: &text)
        text += ",\"route\":"
        Self.appendQuoted(route, to: &text)
        text += ",\"status\":\(status),\"bytes\":\(bytes),\"ms\":\(ms.isFinite ? "\(ms)" : "0")}"
        return text
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    private static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            // Nothing to escape (the common case): the string as it is.
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// The time now in UTC, to the millisecond: `2026-11-28T21:00:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
        }
        return "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2))T"
            + "\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2)).\(digits(now.tv_nsec / 1_000_000, 3))Z"
    }
}
