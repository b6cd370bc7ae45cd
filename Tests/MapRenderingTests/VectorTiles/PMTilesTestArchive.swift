import Foundation
import ImageCodecs
@testable import MapRendering

/// Builds small PMTiles v3 archives for the hostile cases, byte by byte as
/// the spec lays them out (header, root directory, leaf directories, tile
/// data), with directories and tiles stored uncompressed unless asked.
struct PMTilesTestArchive {
    struct Entry {
        var tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64
    }

    var root: [Entry]
    var leaves: [UInt8] = []
    var tiles: [UInt8] = []
    var tileCompression: UInt8 = 1
    var internalCompression: UInt8 = 1

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, bytes = [UInt8]()
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// A directory's bytes (offsets written explicitly, as offset + 1).
    static func directory(_ entries: [Entry]) -> [UInt8] {
        var bytes = varint(UInt64(entries.count))
        var previous: UInt64 = 0
        for entry in entries {
            bytes += varint(entry.tileID - previous)
            previous = entry.tileID
        }
        for entry in entries { bytes += varint(entry.runLength) }
        for entry in entries { bytes += varint(entry.length) }
        for entry in entries { bytes += varint(entry.offset + 1) }
        return bytes
    }

    /// A gzip member around our raw deflate output.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let deflated = bytes.withUnsafeBufferPointer { DeflateEncoder(level: 9).compress($0) }
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + deflated + le(CRC32.checksum(bytes)) + le(UInt32(truncatingIfNeeded: bytes.count))
    }

    var bytes: [UInt8] {
        var rootBytes = Self.directory(root)
        if internalCompression == 2 { rootBytes = Self.gzip(rootBytes) }
        let rootOffset: UInt64 = 127, leafOffset = rootOffset + UInt64(rootBytes.count)
        let tileOffset = leafOffset + UInt64(leaves.count)
        var header = Array("PMTiles".utf8) + [3]
        func u64(_ v: UInt64) { header += (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        u64(rootOffset); u64(UInt64(rootBytes.count))
        u64(tileOffset + UInt64(tiles.count)); u64(0)  // metadata: empty
        u64(leafOffset); u64(UInt64(leaves.count))
        u64(tileOffset); u64(UInt64(tiles.count))
        u64(0); u64(0); u64(0)
        header += [1, internalCompression, tileCompression, 1, 0, 14]
        header += [UInt8](repeating: 0, count: 127 - header.count)
        return header + rootBytes + leaves + tiles
    }

    var archive: PMTilesArchive {
        get throws { try PMTilesArchive(source: PMTilesDataSource(Data(bytes))) }
    }
}
