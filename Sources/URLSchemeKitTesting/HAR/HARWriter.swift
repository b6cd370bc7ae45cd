import Foundation

/// Writes HAR files that diff cleanly when re-recorded: keys sorted, two-space
/// indentation, slashes unescaped, headers sorted by name (values kept in
/// their order), a final newline.
public struct HARWriter: Sendable {
    /// A writer.
    public init() {}

    /// The bytes of `file`.
    public func data(_ file: HARFile) throws -> Data {
        var file = file
        for index in file.log.entries.indices {
            file.log.entries[index].request.headers = Self.sorted(file.log.entries[index].request.headers)
            file.log.entries[index].response.headers = Self.sorted(file.log.entries[index].response.headers)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(file)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes `file` to `url` atomically (a reader never sees half a file).
    public func write(_ file: HARFile, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data(file).write(to: url, options: .atomic)
    }

    /// Headers by lower-cased name; a stable sort keeps repeated fields in order.
    static func sorted(_ headers: [HARNameValue]) -> [HARNameValue] {
        headers.enumerated().sorted { ($0.element.name.lowercased(), $0.offset) < ($1.element.name.lowercased(), $1.offset) }.map(\.element)
    }
}
