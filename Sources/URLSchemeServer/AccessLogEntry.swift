import Foundation

/// One line of the access log: a JSON object per answered request, keys in
/// a fixed order, e.g.
/// `{"time":"2026-11-28T21:00:00.123Z","peer":"127.0.0.1","method":"GET","target":"/map?…","route":"map","status":200,"bytes":5120,"ms":3.2}`.
struct AccessLogEntry: Encodable {
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
