/// Decodes a WebP lossless (`VP8L`) bitstream to ARGB words (alpha in the
/// top byte), following the lossless bitstream specification (RFC 9649,
/// section 3): the transforms, then the entropy-coded image with its colour
/// cache and meta prefix codes, then the transforms undone in reverse.
///
/// Every count is checked before it sizes an allocation: the image against
/// `maximumPixelCount`, sub-images by construction (a fraction of it), the
/// colour cache to 11 bits, prefix-code tables to what a complete code of the
/// alphabet can need. A backward reference may not reach before the first
/// pixel or past the last.
struct VP8LDecoder {
    static let signature: UInt8 = 0x2F
    static let maximumCacheBits = 11
    /// Symbols of the distance alphabet, and of length prefixes in the green one.
    static let distanceAlphabetSize = 40
    static let lengthPrefixCount = 24

    /// The header of a `VP8L` chunk.
    struct Header: Equatable {
        var width: Int
        var height: Int
        /// The encoder's hint that some alpha is not 255.
        var hasAlpha: Bool
    }

    let maximumPixelCount: Int

    /// Reads the five-byte header at the start of a `VP8L` chunk's payload.
    static func readHeader(_ chunk: UnsafeRawBufferPointer) throws -> Header {
        guard chunk.count >= 5 else { throw WebPError.truncated("the VP8L header needs 5 bytes, the chunk has \(chunk.count)") }
        guard chunk[0] == signature else {
            throw WebPError.invalidLossless("the VP8L signature byte is \(chunk[0]), not 0x2F")
        }
        let bits = UInt32(chunk[1]) | UInt32(chunk[2]) << 8 | UInt32(chunk[3]) << 16 | UInt32(chunk[4]) << 24
        let version = bits >> 29
        guard version == 0 else { throw WebPError.invalidLossless("VP8L version \(version); only 0 exists") }
        return Header(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1, hasAlpha: (bits >> 28) & 1 == 1)
    }

    /// Throws unless `width` × `height` is within `maximumPixelCount`; returns the pixel count.
    func checkSize(width: Int, height: Int) throws -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw WebPError.tooManyPixels(width: width, height: height, limit: maximumPixelCount)
        }
        return pixels
    }

    /// Decodes an image stream without the header, its size given (how an
    /// `ALPH` chunk stores its alpha plane, in the green channel).
    func decodeImageStream(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int,
                           checkCancellation: () throws -> Void) throws -> [UInt32] {
        let pixels = try checkSize(width: width, height: height)
        return try [UInt32](unsafeUninitializedCapacity: pixels) { buffer, initialized in
            try decodeImageStream(bytes, width: width, height: height, into: buffer.baseAddress!, checkCancellation: checkCancellation)
            initialized = pixels
        }
    }

    /// Decodes an image stream into `output`, `width` × `height` words the
    /// caller has sized after `checkSize`: every word is written unless it throws.
    func decodeImageStream(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, into output: UnsafeMutablePointer<UInt32>,
                           checkCancellation: () throws -> Void) throws {
        var reader = VP8LBitReader(bytes)
        do {
            let transforms = try readTransforms(width: width, height: height, from: &reader)
            var codedWidth = width
            for transform in transforms {
                if case let .colorIndexing(bits, _, _) = transform { codedWidth = VP8LTransform.codedWidth(codedWidth, bundlingBits: bits) }
            }
            try decodeCodedImage(into: output, width: codedWidth, height: height, mayUseMetaCodes: true,
                                 from: &reader, checkCancellation: checkCancellation)
            try checkCancellation()
            var currentWidth = codedWidth
            for transform in transforms.reversed() {
                if case let .colorIndexing(_, fullWidth, _) = transform { currentWidth = fullWidth }
                transform.invert(output, width: currentWidth, height: height)
            }
        } catch let error as WebPError where reader.isPastEnd {
            // Whatever broke was read from the zeros past the end: the data is cut short.
            if case .truncated = error { throw error }
            throw WebPError.truncated("the VP8L bitstream ends early")
        }
    }

    /// The transforms in the order they were read (to be undone in reverse).
    private func readTransforms(width: Int, height: Int, from reader: inout VP8LBitReader) throws -> [VP8LTransform] {
        var transforms: [VP8LTransform] = []
        var seen = 0, currentWidth = width
        while reader.readFlag() {
            let type = reader.read(2)
            guard seen & (1 << type) == 0 else {
                throw WebPError.invalidLossless("transform \(type) appears twice (each may be used once)")
            }
            seen |= 1 << type
            switch type {
            case 0, 1:
                let bits = reader.read(3) + 2
                let blockColumns = (currentWidth + (1 << bits) - 1) >> bits, blockRows = (height + (1 << bits) - 1) >> bits
                let data = try decodeSubimage(width: blockColumns, height: blockRows, from: &reader)
                transforms.append(type == 0 ? .predictor(bits: bits, width: currentWidth, modes: data)
                                            : .color(bits: bits, width: currentWidth, elements: data))
            case 2:
                transforms.append(.subtractGreen)
            default:
                let count = reader.read(8) + 1
                let bits = count > 16 ? 0 : count > 4 ? 1 : count > 2 ? 2 : 3
                var palette = try decodeSubimage(width: count, height: 1, from: &reader)
                // Stored as differences from the previous entry, channel by channel.
                for i in 1..<count { palette[i] = VP8LTransform.add(palette[i], palette[i - 1]) }
                // Indices past the palette (a bundled index can reach 1 << (8 >> bits),
                // a plain one 256) are transparent black.
                palette += repeatElement(0, count: (1 << (8 >> bits)) - count)
                transforms.append(.colorIndexing(bits: bits, width: currentWidth, palette: palette))
                currentWidth = VP8LTransform.codedWidth(currentWidth, bundlingBits: bits)
            }
        }
        if reader.isPastEnd { throw WebPError.truncated("inside the VP8L transforms") }
        return transforms
    }

    /// A sub-image (transform data, palette, entropy image): no transforms
    /// and no meta prefix codes of its own.
    private func decodeSubimage(width: Int, height: Int, from reader: inout VP8LBitReader) throws -> [UInt32] {
        var data = [UInt32](repeating: 0, count: width * height)
        try data.withUnsafeMutableBufferPointer { buffer in
            try decodeCodedImage(into: buffer.baseAddress!, width: width, height: height, mayUseMetaCodes: false,
                                 from: &reader, checkCancellation: {})
        }
        return data
    }

    /// The colour cache size, meta prefix codes and prefix codes, then the
    /// LZ77-coded pixels into `output` (`width` × `height` words).
    private func decodeCodedImage(into output: UnsafeMutablePointer<UInt32>, width: Int, height: Int, mayUseMetaCodes: Bool,
                                  from reader: inout VP8LBitReader, checkCancellation: () throws -> Void) throws {
        var cacheBits = 0
        if reader.readFlag() {
            cacheBits = reader.read(4)
            guard (1...Self.maximumCacheBits).contains(cacheBits) else {
                throw WebPError.invalidLossless("colour cache of \(cacheBits) bits (1…\(Self.maximumCacheBits) allowed)")
            }
        }
        var groupImage: [UInt32] = [], groupBits = 0, groupCount = 1
        var used: [Int32] = [0]
        if mayUseMetaCodes && reader.readFlag() {
            groupBits = reader.read(3) + 2
            let columns = (width + (1 << groupBits) - 1) >> groupBits, rows = (height + (1 << groupBits) - 1) >> groupBits
            groupImage = try decodeSubimage(width: columns, height: rows, from: &reader)
            // The group of a block is its red and green bytes. Only the groups
            // a block names get tables; the others are read and checked only.
            var maximum = 0
            for i in groupImage.indices {
                groupImage[i] = (groupImage[i] >> 8) & 0xFFFF
                maximum = max(maximum, Int(groupImage[i]))
            }
            groupCount = maximum + 1
            used = [Int32](repeating: -1, count: groupCount)
            for group in groupImage { used[Int(group)] = 0 }
            var next: Int32 = 0
            for g in 0..<groupCount where used[g] == 0 { used[g] = next; next += 1 }
            for i in groupImage.indices { groupImage[i] = UInt32(used[Int(groupImage[i])]) * 5 }
        }
        let greenAlphabet = 256 + Self.lengthPrefixCount + (cacheBits > 0 ? 1 << cacheBits : 0)
        var codes = VP8LPrefixCodes()
        var lengths = [UInt8](repeating: 0, count: greenAlphabet)
        for g in 0..<groupCount {
            let keep = used[g] >= 0
            try codes.read(alphabetSize: greenAlphabet, from: &reader, lengths: &lengths, keep: keep)
            for _ in 0..<3 { try codes.read(alphabetSize: 256, from: &reader, lengths: &lengths, keep: keep) }
            try codes.read(alphabetSize: Self.distanceAlphabetSize, from: &reader, lengths: &lengths, keep: keep)
        }
        var cache = [UInt32](repeating: 0, count: cacheBits > 0 ? 1 << cacheBits : 1)
        try codes.entries.withUnsafeBufferPointer { entries in
            try codes.codes.withUnsafeBufferPointer { codeList in
                try groupImage.withUnsafeBufferPointer { groupImage in
                    try cache.withUnsafeMutableBufferPointer { cache in
                        try Self.decodePixels(into: output, width: width, height: height,
                                              entries: entries.baseAddress!, codes: codeList.baseAddress!,
                                              groupImage: groupImage, groupBits: groupBits,
                                              cache: cache.baseAddress!, cacheBits: cacheBits,
                                              from: &reader, checkCancellation: checkCancellation)
                    }
                }
            }
        }
    }

    /// The value a length or distance prefix symbol stands for, reading its extra bits.
    @inline(__always)
    private static func prefixValue(_ symbol: Int, _ reader: inout VP8LBitReader) -> Int {
        if symbol < 4 { return symbol + 1 }
        let extraBits = (symbol - 2) >> 1
        let offset = (2 + (symbol & 1)) << extraBits
        return offset + reader.read(extraBits) + 1
    }

    /// The 120 short distance codes: the (dx, dy) pairs of section 5.2.2 of
    /// the spec, packed as dy × 16 + 8 − dx; the distance is dy × width + dx.
    static let planeOffsets: [UInt8] = [
        0x18, 0x07, 0x17, 0x19, 0x28, 0x06, 0x27, 0x29, 0x16, 0x1A, 0x26, 0x2A, 0x38, 0x05, 0x37, 0x39, 0x15, 0x1B, 0x36, 0x3A,
        0x25, 0x2B, 0x48, 0x04, 0x47, 0x49, 0x14, 0x1C, 0x35, 0x3B, 0x46, 0x4A, 0x24, 0x2C, 0x58, 0x45, 0x4B, 0x34, 0x3C, 0x03,
        0x57, 0x59, 0x13, 0x1D, 0x56, 0x5A, 0x23, 0x2D, 0x44, 0x4C, 0x55, 0x5B, 0x33, 0x3D, 0x68, 0x02, 0x67, 0x69, 0x12, 0x1E,
        0x66, 0x6A, 0x22, 0x2E, 0x54, 0x5C, 0x43, 0x4D, 0x65, 0x6B, 0x32, 0x3E, 0x78, 0x01, 0x77, 0x79, 0x53, 0x5D, 0x11, 0x1F,
        0x64, 0x6C, 0x42, 0x4E, 0x76, 0x7A, 0x21, 0x2F, 0x75, 0x7B, 0x31, 0x3F, 0x63, 0x6D, 0x52, 0x5E, 0x00, 0x74, 0x7C, 0x41,
        0x4F, 0x10, 0x20, 0x62, 0x6E, 0x30, 0x73, 0x7D, 0x51, 0x5F, 0x40, 0x72, 0x7E, 0x61, 0x6F, 0x50, 0x71, 0x7F, 0x60, 0x70,
    ]

    @inline(__always)
    private static func hash(_ pixel: UInt32, _ shift: UInt32) -> Int {
        Int(truncatingIfNeeded: (pixel &* 0x1E35_A7BD) >> shift)
    }

    private static func decodePixels(into output: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
                                     entries: UnsafePointer<UInt32>, codes: UnsafePointer<VP8LPrefixCodes.Code>,
                                     groupImage: UnsafeBufferPointer<UInt32>, groupBits: Int,
                                     cache: UnsafeMutablePointer<UInt32>, cacheBits: Int,
                                     from source: inout VP8LBitReader, checkCancellation: () throws -> Void) throws {
        // A local copy the optimiser can keep in registers (an inout one stays in memory).
        var reader = source
        defer { source = reader }
        let total = width * height
        let hasGroups = !groupImage.isEmpty
        let groupMask = hasGroups ? (1 << groupBits) - 1 : -1
        let groupColumns = (width + (1 << groupBits) - 1) >> groupBits
        let cacheShift = UInt32(32 - cacheBits), usesCache = cacheBits > 0
        var position = 0, x = 0, y = 0
        var group = codes
        @inline(__always) func groupAt(_ x: Int, _ y: Int) -> UnsafePointer<VP8LPrefixCodes.Code> {
            codes + Int(groupImage[(y >> groupBits) * groupColumns + (x >> groupBits)])
        }
        while position < total {
            if hasGroups && x & groupMask == 0 { group = groupAt(x, y) }
            let green = VP8LPrefixCodes.decode(entries, group[0], &reader)
            if green < 256 {
                let red = VP8LPrefixCodes.decode(entries, group[1], &reader)
                let blue = VP8LPrefixCodes.decode(entries, group[2], &reader)
                let alpha = VP8LPrefixCodes.decode(entries, group[3], &reader)
                let pixel = UInt32(truncatingIfNeeded: alpha << 24 | red << 16 | green << 8 | blue)
                output[position] = pixel
                if usesCache { cache[hash(pixel, cacheShift)] = pixel }
                position += 1
                x += 1
                if x == width {
                    x = 0
                    y += 1
                    if reader.isPastEnd { throw WebPError.truncated("inside the VP8L pixels, at row \(y - 1)") }
                    if y & 63 == 0 { try checkCancellation() }
                }
            } else if green < 256 + lengthPrefixCount {
                let length = prefixValue(green - 256, &reader)
                let distanceSymbol = VP8LPrefixCodes.decode(entries, group[4], &reader)
                let code = prefixValue(distanceSymbol, &reader)
                var distance: Int
                if code > 120 {
                    distance = code - 120
                } else {
                    let packed = Int(planeOffsets[code - 1])
                    distance = (packed >> 4) * width + 8 - (packed & 0xF)
                    if distance < 1 { distance = 1 }
                }
                if reader.isPastEnd { throw WebPError.truncated("inside the VP8L pixels, at row \(y)") }
                guard distance <= position, length <= total - position else {
                    throw WebPError.invalidLossless("a backward reference (distance \(distance), length \(length)) at pixel \(position) reaches outside the image")
                }
                var source = output + position - distance
                let end = output + position + length
                var target = output + position
                while target < end {
                    target.pointee = source.pointee
                    target += 1
                    source += 1
                }
                if usesCache {
                    for i in position..<position + length { cache[hash(output[i], cacheShift)] = output[i] }
                }
                position += length
                x += length
                if x >= width {
                    y += x / width
                    x %= width
                    if y & 63 == 0 { try checkCancellation() }
                }
                if hasGroups && position < total { group = groupAt(x, y) }
            } else {
                let pixel = cache[green - 256 - lengthPrefixCount]
                output[position] = pixel
                cache[hash(pixel, cacheShift)] = pixel
                position += 1
                x += 1
                if x == width {
                    x = 0
                    y += 1
                    if reader.isPastEnd { throw WebPError.truncated("inside the VP8L pixels, at row \(y - 1)") }
                }
            }
        }
        if reader.isPastEnd { throw WebPError.truncated("inside the VP8L pixels") }
    }
}
