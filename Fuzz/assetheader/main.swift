import Foundation
@testable import URLSchemeKit

// libFuzzer entry for the header of a `FileAssetStore` file. The input is
// parsed as a whole file (header, then original) and as a header alone; a
// header that parses must point inside the file and describe exactly the
// bytes after it. A header written for the input's bytes must read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssetHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let header = AssetFileHeader(parsing: data, fileSize: data.count) {
        precondition(header.originalOffset >= 4 && header.originalOffset <= data.count, "offset outside the file")
        precondition(header.metadata.byteCount == data.count - header.originalOffset, "byte count disagrees with the file")
    }
    for size in [data.count / 2, data.count * 2, Int.max, -1] {
        _ = AssetFileHeader(parsing: data, fileSize: size)
    }
    _ = AssetFileHeader.jsonLength(data)

    let metadata = AssetMetadata(id: String(decoding: data.prefix(26), as: UTF8.self), byteCount: data.count,
                                 format: ImageFormat.allCases[count % 2], width: count, height: Int(data.first ?? 0),
                                 orientation: ImageOrientation.allCases[count % 8],
                                 added: Date(timeIntervalSinceReferenceDate: Double(count)), checksum: UInt32(truncatingIfNeeded: count))
    if let header = try? AssetFileHeader.encode(metadata) {
        let parsed = AssetFileHeader(parsing: header + data, fileSize: header.count + data.count)
        precondition(parsed?.metadata == metadata, "a written header does not read back")
    }
    return 0
}
