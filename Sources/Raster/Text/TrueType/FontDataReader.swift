/// Big-endian reads from a font's bytes, each bounds-checked: an offset past
/// the end throws `TrueTypeError.truncated` naming `context`.
struct FontDataReader {
    let bytes: [UInt8]

    func u8(_ offset: Int, _ context: String) throws -> Int {
        guard offset >= 0, offset < bytes.count else { throw TrueTypeError.truncated(context) }
        return Int(bytes[offset])
    }

    func u16(_ offset: Int, _ context: String) throws -> Int {
        guard offset >= 0, offset <= bytes.count - 2 else { throw TrueTypeError.truncated(context) }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func i16(_ offset: Int, _ context: String) throws -> Int {
        Int(Int16(truncatingIfNeeded: try u16(offset, context)))
    }

    func u32(_ offset: Int, _ context: String) throws -> Int {
        guard offset >= 0, offset <= bytes.count - 4 else { throw TrueTypeError.truncated(context) }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    /// F2Dot14: a signed 2.14 fixed-point number (composite glyph scales).
    func f2dot14(_ offset: Int, _ context: String) throws -> Double {
        Double(try i16(offset, context)) / 16384
    }
}
