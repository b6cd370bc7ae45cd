import Foundation

/// Writes protocol-buffer fields (varints, zigzag `sint32`, length-delimited
/// bytes and messages): the encoding ``ProtobufReader`` reads, for files the
/// package makes itself (glyph ranges).
struct ProtobufWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Field `number` as a varint.
    mutating func field(_ number: Int, varint value: UInt64) {
        varint(UInt64(number) << 3)
        varint(value)
    }

    /// Field `number` as a zigzag-encoded `sint32`.
    mutating func field(_ number: Int, sint32 value: Int32) {
        field(number, varint: UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31))))
    }

    /// Field `number` as length-delimited `bytes` (a string, bytes or an embedded message).
    mutating func field(_ number: Int, bytes value: [UInt8]) {
        varint(UInt64(number) << 3 | 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
}
