extension Inflater {
    /// Decompresses one gzip member (RFC 1952): header (with its optional
    /// extra field, name, comment and header CRC), deflate data, then the
    /// CRC-32 and length of the output, both checked. At most `limit` bytes
    /// are produced. Throws `ImageCodecError` (detail `.deflate`).
    public static func gzipDecompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        try ImageCodecError.converting { try decodeGzip(input, expectedSize: expectedSize, limit: limit) }
    }

    /// Decompresses one gzip member held in an array.
    public static func gzipDecompress(_ input: [UInt8], expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        try input.withUnsafeBufferPointer { try gzipDecompress($0, expectedSize: expectedSize, limit: limit) }
    }

    /// The first bytes of one gzip member's data, at least `count` (up to
    /// 4,096) when it holds that many, inflating no further: for a caller
    /// that reads a size from the start of the data before inflating it
    /// all. Nothing is checked past them (the CRC-32 covers the whole).
    /// Throws `ImageCodecError` (detail `.deflate`).
    public static func gzipPrefix(_ input: [UInt8], count: Int) throws -> [UInt8] {
        try ImageCodecError.converting {
            try input.withUnsafeBufferPointer { input in
                let start = try gzipDataStart(input)
                return try decodeDeflate(UnsafeBufferPointer(rebasing: input[start...]), limit: min(count, 4096) + 258,
                                         stoppingAtLimit: true).output
            }
        }
    }

    /// `gzipDecompress`, throwing `InflateError`.
    static func decodeGzip(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        let position = try gzipDataStart(input)
        let (output, used) = try decodeDeflate(UnsafeBufferPointer(rebasing: input[position...]), expectedSize: expectedSize, limit: limit)
        let trailer = position + used
        guard trailer + 8 <= input.count else { throw InflateError.truncated }
        func word(_ at: Int) -> UInt32 {
            UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
        }
        let computed = CRC32.checksum(output)
        guard word(trailer) == computed else {
            throw InflateError.corrupt("gzip CRC-32 mismatch: stored \(word(trailer)), computed \(computed)")
        }
        guard word(trailer + 4) == UInt32(truncatingIfNeeded: output.count) else {
            throw InflateError.corrupt("gzip length field says \(word(trailer + 4)) bytes, the data inflated to \(output.count)")
        }
        return output
    }

    /// Where a gzip member's deflate data starts, after its header (with
    /// its optional extra field, name, comment and header CRC), checked.
    private static func gzipDataStart(_ input: UnsafeBufferPointer<UInt8>) throws -> Int {
        guard input.count >= 10 else { throw InflateError.truncated }
        guard input[0] == 0x1F, input[1] == 0x8B else {
            throw InflateError.corrupt("gzip magic is \(input[0]) \(input[1]), expected 31 139")
        }
        guard input[2] == 8 else { throw InflateError.corrupt("gzip compression method \(input[2]), expected 8 (deflate)") }
        let flags = input[3]
        guard flags & 0xE0 == 0 else { throw InflateError.corrupt("gzip header sets reserved flag bits (\(flags))") }
        var position = 10
        if flags & 0x04 != 0 {  // FEXTRA: a two-byte length, then that many bytes
            guard position + 2 <= input.count else { throw InflateError.truncated }
            position += 2 + (Int(input[position]) | Int(input[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while position < input.count && input[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }  // FHCRC
        guard position < input.count else { throw InflateError.truncated }
        return position
    }
}
