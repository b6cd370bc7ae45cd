/// A forward reader of protocol-buffer wire format over borrowed bytes:
/// varints, zig-zag, fixed 32/64-bit and length-delimited fields, every read
/// bounds-checked. It allocates nothing; a length-delimited field comes back
/// as a sub-reader over the same bytes, so the caller must keep them alive
/// (the decoders run inside one `withUnsafeBytes`).
struct ProtobufReader {
    /// Protobuf wire types (the low three bits of a field's key).
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private let base: UnsafePointer<UInt8>?
    private(set) var position: Int
    let end: Int

    /// Reads all of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        base = bytes.baseAddress
        position = 0
        end = bytes.count
    }

    private init(base: UnsafePointer<UInt8>?, position: Int, end: Int) {
        self.base = base
        self.position = position
        self.end = end
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= end }
    /// Bytes left to read.
    var remaining: Int { end - position }

    /// The next field's number and wire type, or nil at the end of the message.
    /// Field 0 and the group wire types (3, 4) and 6, 7 are refused.
    @inline(__always)
    mutating func nextField() throws -> (number: UInt32, type: WireType)? {
        guard let base, position < end else { return nil }
        // Fields 1…15 with a known wire type: one byte, no checks left to make.
        let first = base[position]
        if first < 0x80, first >= 8, let type = WireType(rawValue: first & 7) {
            position += 1
            return (UInt32(first >> 3), type)
        }
        return try longField()
    }

    @inline(never)
    private mutating func longField() throws -> (number: UInt32, type: WireType)? {
        let key = try varint()
        let number = key >> 3
        guard number > 0, number <= UInt64(UInt32.max >> 3) else {
            throw VectorTileError(.corrupt, "protobuf field number \(number) at byte \(position) is out of range")
        }
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw VectorTileError(.corrupt, "protobuf wire type \(key & 7) (field \(number)) is not one of 0, 1, 2, 5")
        }
        return (UInt32(number), type)
    }

    /// A base-128 varint of at most ten bytes.
    @inline(__always)
    mutating func varint() throws -> UInt64 {
        guard let base, position < end else { throw truncated("a varint") }
        // One-byte varints (most tags, small counts and deltas) take the short path.
        let first = base[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw truncated("a varint") }
            let byte = base[position]
            position += 1
            if shift == 63 && byte > 1 { throw VectorTileError(.corrupt, "a varint at byte \(position - 1) overflows 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// A varint that must fit in 32 bits (a `uint32` field). One-byte values
    /// (most geometry parameters and tag indices) are read inline; the rest,
    /// and every error, out of line.
    @inline(__always)
    mutating func uint32(_ field: @autoclosure () -> String) throws -> UInt32 {
        if let base, position < end {
            let first = base[position]
            if first < 0x80 {
                position += 1
                return UInt32(first)
            }
        }
        return try longUInt32(field())
    }

    @inline(never)
    private mutating func longUInt32(_ field: @autoclosure () -> String) throws -> UInt32 {
        let value = try varint()
        guard value <= UInt64(UInt32.max) else { throw VectorTileError(.corrupt, "\(field()) is \(value), more than 32 bits") }
        return UInt32(value)
    }

    /// A zig-zag encoded `sint64`.
    mutating func sint64() throws -> Int64 { Self.zigZag(try varint()) }

    /// Decodes zig-zag: 0, 1, 2, 3 → 0, -1, 1, -2.
    @inline(__always)
    static func zigZag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// Decodes 32-bit zig-zag (geometry parameters).
    @inline(__always)
    static func zigZag32(_ value: UInt32) -> Int32 { Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1) }

    /// Four little-endian bytes.
    mutating func fixed32() throws -> UInt32 {
        guard let base, remaining >= 4 else { throw truncated("a fixed32") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(base[position + i]) << (8 * i) }
        position += 4
        return value
    }

    /// Eight little-endian bytes.
    mutating func fixed64() throws -> UInt64 {
        guard let base, remaining >= 8 else { throw truncated("a fixed64") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(base[position + i]) << (8 * i) }
        position += 8
        return value
    }

    /// A length-delimited field's bytes as a reader of their own.
    mutating func lengthDelimited() throws -> ProtobufReader {
        try bytes(try varint())
    }

    /// The next `length` bytes as a reader of their own (MapLibre Tiles
    /// streams, whose length comes in their header, not just before them).
    mutating func bytes(_ length: UInt64) throws -> ProtobufReader {
        guard length <= UInt64(remaining) else {
            throw truncated("a field of \(length) bytes (\(remaining) left)")
        }
        let sub = ProtobufReader(base: base, position: position, end: position + Int(length))
        position += Int(length)
        return sub
    }

    /// One byte.
    mutating func byte() throws -> UInt8 {
        guard let base, position < end else { throw truncated("a byte") }
        position += 1
        return base[position - 1]
    }

    /// A length-delimited field decoded as UTF-8 (invalid sequences repaired).
    mutating func string() throws -> String {
        let sub = try lengthDelimited()
        return sub.restAsString()
    }

    /// What is left of this reader, as UTF-8.
    func restAsString() -> String {
        guard let base else { return "" }
        return String(decoding: UnsafeBufferPointer(start: base + position, count: remaining), as: UTF8.self)
    }

    /// What is left of this reader, as borrowed bytes.
    var restBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.map { $0 + position }, count: remaining)
    }

    /// Skips a field's value of wire type `type`.
    mutating func skip(_ type: WireType) throws {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        }
    }

    private func truncated(_ what: String) -> VectorTileError {
        VectorTileError(.truncated, "protobuf data ends inside \(what) at byte \(position)")
    }
}
