import Foundation

/// The front of a `FileAssetStore` file: a 4-byte little-endian length, then
/// that many bytes of JSON (the asset's `AssetMetadata`, with the CRC-32 of
/// the original). The original's bytes follow, unchanged, to the end of the file.
///
/// Every field is checked against the file it came from: a header whose
/// length or byte count disagrees with the file's size describes a damaged
/// (for instance truncated) file and is refused before the original is read.
struct AssetFileHeader: Equatable, Sendable {
    /// Headers are a few hundred bytes; a larger length means a damaged file.
    static let maximumLength = 1 << 16

    /// The stored facts, checksum included.
    var metadata: AssetMetadata
    /// Where the original's bytes start in the file.
    var originalOffset: Int

    /// The header of a new file holding `metadata`, serialised.
    static func encode(_ metadata: AssetMetadata) throws -> Data {
        let json = try JSONEncoder().encode(metadata)
        var header = Data(capacity: 4 + json.count)
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { header.append(contentsOf: $0) }
        header.append(json)
        return header
    }

    /// The length of the JSON that follows the first 4 bytes of `prefix`;
    /// nil when `prefix` is short or names a length above `maximumLength`.
    static func jsonLength(_ prefix: Data) -> Int? {
        guard prefix.count >= 4 else { return nil }
        let length = prefix.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        return length <= maximumLength ? length : nil
    }

    /// Parses the header at the start of `data` (the header alone, or more)
    /// of a file of `fileSize` bytes. Returns nil for anything malformed or
    /// inconsistent with the file's size.
    init?(parsing data: Data, fileSize: Int) {
        guard let length = Self.jsonLength(data), data.count >= 4 + length,
              let metadata = try? JSONDecoder().decode(AssetMetadata.self, from: data.dropFirst(4).prefix(length)),
              metadata.byteCount >= 0, fileSize - 4 - length == metadata.byteCount else { return nil }
        self.metadata = metadata
        originalOffset = 4 + length
    }
}
