/// Deflate decompression (RFC 1951), raw or with zlib (RFC 1950) or gzip
/// (RFC 1952, in `Inflater+Gzip.swift`) framing:
/// every block type, every valid stream, and a bound on the output.
public enum Inflater {
    /// Decompresses a zlib stream, checking its header and Adler-32. At most
    /// `limit` bytes are produced; `expectedSize` only sizes the first buffer.
    /// Throws `ImageCodecError` (detail `.deflate`).
    public static func zlibDecompress(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        try ImageCodecError.converting { try decodeZlib(input, expectedSize: expectedSize, limit: limit) }
    }

    /// Decompresses a zlib stream held in an array.
    public static func zlibDecompress(_ input: [UInt8], expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        try input.withUnsafeBufferPointer { try zlibDecompress($0, expectedSize: expectedSize, limit: limit) }
    }

    /// Decompresses raw deflate data; returns the output and the input bytes
    /// used. Throws `ImageCodecError` (detail `.deflate`).
    public static func inflate(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int) throws -> (output: [UInt8], bytesRead: Int) {
        try ImageCodecError.converting { try decodeDeflate(input, expectedSize: expectedSize, limit: limit) }
    }

    /// `zlibDecompress`, throwing `InflateError` for a caller (the PNG
    /// decoder) that reports the fault in its own terms.
    static func decodeZlib(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int) throws -> [UInt8] {
        guard input.count >= 2 else { throw InflateError.truncated }
        let cmf = input[0], flg = input[1]
        guard cmf & 0x0F == 8 else { throw InflateError.corrupt("zlib compression method \(cmf & 0x0F), expected 8 (deflate)") }
        guard cmf >> 4 <= 7 else { throw InflateError.corrupt("zlib window size field \(cmf >> 4) exceeds 7") }
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else { throw InflateError.corrupt("zlib header check bits are wrong") }
        guard flg & 0x20 == 0 else { throw InflateError.corrupt("zlib preset dictionaries are not supported") }
        let (output, end) = try decodeDeflate(UnsafeBufferPointer(rebasing: input[2...]), expectedSize: expectedSize, limit: limit)
        let trailer = 2 + end
        guard trailer + 4 <= input.count else { throw InflateError.truncated }
        let stored = UInt32(input[trailer]) << 24 | UInt32(input[trailer + 1]) << 16 | UInt32(input[trailer + 2]) << 8 | UInt32(input[trailer + 3])
        let actual = output.withUnsafeBufferPointer { Adler32.checksum($0) }
        guard stored == actual else { throw InflateError.corrupt("Adler-32 mismatch: stored \(stored), computed \(actual)") }
        return output
    }

    /// `inflate`, throwing `InflateError`.
    /// `stoppingAtLimit`: a prefix is wanted, so reaching `limit` ends
    /// decoding with what was produced (at least `limit` - 258 bytes, a match's
    /// most, when the data holds that many) instead of throwing.
    static func decodeDeflate(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int = 0, limit: Int,
                              stoppingAtLimit: Bool = false) throws -> (output: [UInt8], bytesRead: Int) {
        // Decode straight into the array returned, so a large output is neither
        // copied nor faulted in twice; only an output beyond `expectedSize`
        // grows into storage of its own and is copied once at the end.
        let capacity = InflateOutput.initialCapacity(expected: expectedSize > 0 ? expectedSize : input.count * 4, limit: limit)
        var grown: [UInt8]?
        var bytesRead = 0
        let direct = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = 0
            var output = InflateOutput(writingInto: buffer.baseAddress!, capacity: capacity, limit: limit)
            defer { output.deallocate() }
            var reader = InflateBitReader(input)
            var final = false
            do {
                while !final {
                    final = try reader.bits(1) == 1
                    switch try reader.bits(2) {
                    case 0:
                        let start = reader.nextByte
                        guard start + 4 <= input.count else { throw InflateError.truncated }
                        let length = Int(input[start]) | Int(input[start + 1]) << 8
                        let complement = Int(input[start + 2]) | Int(input[start + 3]) << 8
                        guard length == complement ^ 0xFFFF else { throw InflateError.corrupt("stored block length \(length) does not match its complement") }
                        try reader.copyBytes(0, into: &output)  // move past the header
                        _ = try reader.bits(32)
                        try reader.copyBytes(length, into: &output)
                    case 1:
                        try InflateBlockDecoder.decode(&reader, literal: FixedCodes.literal, distance: FixedCodes.distance, into: &output)
                    case 2:
                        let (literal, distance) = try readDynamicCodes(&reader)
                        try InflateBlockDecoder.decode(&reader, literal: literal, distance: distance, into: &output)
                    default:
                        throw InflateError.corrupt("block type 3 is reserved")
                    }
                    if reader.isPastEnd { throw InflateError.truncated }
                }
            } catch InflateError.outputLimitExceeded where stoppingAtLimit {
                // The prefix asked for is there; the rest is not wanted.
            }
            bytesRead = reader.nextByte
            if output.ownsStorage { grown = output.bytes() } else { initialized = output.count }
        }
        return (grown ?? direct, bytesRead)
    }

    private static func readDynamicCodes(_ reader: inout InflateBitReader) throws -> (InflateHuffman, InflateHuffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw InflateError.corrupt("dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[DeflateTables.codeLengthOrder[i]] = UInt8(try reader.bits(3)) }
        let codeLengthCode = try InflateHuffman(lengths: codeLengthLengths[...], kind: .codeLength, name: "code-length")
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var i = 0
        while i < lengths.count {
            let symbol = try codeLengthCode.decodeCodeLength(&reader)
            switch symbol {
            case 0...15:
                lengths[i] = UInt8(symbol)
                i += 1
            case 16:
                guard i > 0 else { throw InflateError.corrupt("code-length repeat with nothing to repeat") }
                let run = try reader.bits(2) + 3
                guard i + run <= lengths.count else { throw InflateError.corrupt("code-length repeat runs past the end") }
                for j in i..<i + run { lengths[j] = lengths[i - 1] }
                i += run
            default:
                let run = symbol == 17 ? try reader.bits(3) + 3 : try reader.bits(7) + 11
                guard i + run <= lengths.count else { throw InflateError.corrupt("zero run runs past the end of the code lengths") }
                i += run
            }
        }
        guard lengths[256] > 0 else { throw InflateError.corrupt("the end-of-block symbol has no code") }
        return (try InflateHuffman(lengths: lengths[0..<literalCount], kind: .literalLength, name: "literal/length"),
                try InflateHuffman(lengths: lengths[literalCount...], kind: .distance, name: "distance"))
    }
}

/// The fixed Huffman tables of RFC 1951 §3.2.6, built once.
private enum FixedCodes {
    // Both sets of lengths are complete codes, so building them cannot fail.
    static let literal = (try? InflateHuffman(lengths: DeflateTables.fixedLiteralLengths[...], kind: .literalLength, name: "fixed literal"))!
    static let distance = (try? InflateHuffman(lengths: [UInt8](repeating: 5, count: 32)[...], kind: .distance, name: "fixed distance"))!
}
