import Foundation

/// What a Graphic Control Extension tells the compositor to do with a frame
/// once its delay is over, before the next frame is drawn.
enum GIFDisposal: Equatable, Sendable {
    /// Leave it (0 "unspecified", 1 "do not dispose", and the undefined 5–7, as Chromium reads them).
    case keep
    /// Clear its rectangle: to transparent, as every browser does, not to
    /// the screen's background colour the specification names.
    case background
    /// Put back what was under it (3, and 4, which some encoders write for it).
    case previous
}

/// One image of the file, from its descriptor and the Graphic Control
/// Extension before it: where it goes, its colours and what comes after.
struct GIFImageDescriptor: Equatable, Sendable {
    var left: Int, top: Int, width: Int, height: Int
    var isInterlaced: Bool
    /// The RGB triples of the local palette, else the global one, as a range
    /// of the file's bytes; nil when the file has neither (nothing is drawn).
    var palette: Range<Int>?
    /// The palette index drawn as "leave the pixel underneath", if any.
    var transparentIndex: Int?
    var disposal: GIFDisposal
    /// The delay in hundredths of a second, nil without a Graphic Control Extension.
    var delayCentiseconds: Int?
    /// The LZW minimum code size (bits per literal), 1…11.
    var minimumCodeSize: Int
}

/// Walks a GIF's blocks: the header and logical screen, then image by image,
/// skipping the extensions it does not need and reading the ones it does
/// (Graphic Control, NETSCAPE2.0/ANIMEXTS1.0 loop count). It never reads a
/// byte past the end: running out is `GIFError.truncated`, which
/// `GIFFrameDecoder` turns into the end of the animation after the first frame.
///
/// Like Chromium, a byte that starts no block ends the file quietly (GIF87a
/// says to skip it, GIF89a calls the file corrupt; browsers show the frames
/// read so far), and so does the trailer `;`.
struct GIFParser: Sendable {
    /// The whole file, indexed from 0 (not copied: the file is the caller's).
    let bytes: Data
    /// The next byte to read.
    private(set) var position: Int
    /// The logical screen's size, as stored.
    let screenWidth: Int, screenHeight: Int
    /// The global palette's RGB triples, as a range of `bytes`.
    let globalPalette: Range<Int>?
    /// The NETSCAPE2.0 (or ANIMEXTS1.0) loop count as stored, the first one
    /// read: 0 means forever; nil when none has been read.
    private(set) var storedLoopCount: Int?
    /// Whether the trailer (or a byte that starts no block) has been reached.
    private(set) var isAtEnd = false

    /// Reads the header, logical screen descriptor and global palette.
    init(_ data: Data) throws {
        // A slice of a larger Data starts at its offset there; only then is it copied.
        let bytes = data.startIndex == 0 ? data : Data(data)
        self.bytes = bytes
        let signature = bytes.prefix(6)
        guard "GIF87a".utf8.starts(with: signature) || "GIF89a".utf8.starts(with: signature) else { throw GIFError.notGIF }
        guard bytes.count >= 6 else { throw GIFError.truncated("the file ends inside the 6-byte signature") }
        guard bytes.count >= 13 else { throw GIFError.truncated("the file ends inside the logical screen descriptor") }
        screenWidth = Int(bytes[6]) | Int(bytes[7]) << 8
        screenHeight = Int(bytes[8]) | Int(bytes[9]) << 8
        let flags = bytes[10]
        position = 13
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            guard position + size <= bytes.count else { throw GIFError.truncated("the file ends inside the global palette") }
            globalPalette = position..<position + size
            position += size
        } else {
            globalPalette = nil
        }
    }

    /// The next image's descriptor, the parser left at its first data
    /// sub-block; nil at the end of the file. Throws `.truncated` when the
    /// data ends before the descriptor, its palette and code size are whole,
    /// and `.invalid` for a code size the LZW decoder cannot use.
    mutating func nextImage() throws -> GIFImageDescriptor? {
        var control: (transparentIndex: Int?, disposal: GIFDisposal, delay: Int)?
        while !isAtEnd {
            guard position < bytes.count else { throw GIFError.truncated("the file ends before its trailer") }
            let introducer = bytes[position]
            position += 1
            switch introducer {
            case 0x2C:
                return try readDescriptor(control: control)
            case 0x21:
                guard position < bytes.count else { throw GIFError.truncated("the file ends inside an extension") }
                let label = bytes[position]
                position += 1
                switch label {
                case 0xF9: control = try readGraphicControl() ?? control
                case 0xFF: try readApplication()
                default: try skipSubBlocks()
                }
            default:  // the trailer 0x3B, or a byte that starts no block
                isAtEnd = true
            }
        }
        return nil
    }

    /// The image data's sub-blocks, joined, and whether the block terminator
    /// was reached (false when the file ends first: a download cut short).
    /// The parser is left after the terminator.
    mutating func imageData() -> (data: [UInt8], isComplete: Bool) {
        var data: [UInt8] = []
        var scan = position
        // Size the result once: the sub-blocks' total, walking their lengths.
        var total = 0
        while scan < bytes.count, bytes[scan] != 0 {
            total += min(Int(bytes[scan]), bytes.count - scan - 1)
            scan += 1 + Int(bytes[scan])
        }
        data.reserveCapacity(total)
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1
            if length == 0 { return (data, true) }
            let end = min(position + length, bytes.count)
            data.append(contentsOf: bytes[position..<end])
            position = end
        }
        return (data, false)
    }

    /// How many images the file holds from here, the parser being at an
    /// image's first data sub-block: that one and every descriptor after it
    /// that is whole. Works on a copy, so `self` stays where it is; reads
    /// only block lengths and descriptors, never the LZW data.
    func countImages() -> Int {
        var scan = self
        var count = 1
        while scan.skipImageData(), (try? scan.nextImage()).flatMap({ $0 }) != nil {
            count += 1
        }
        return count
    }

    /// Moves past the image data's sub-blocks and terminator without reading
    /// them; false when the file ends first.
    private mutating func skipImageData() -> Bool {
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1 + length
            if length == 0 { return true }
        }
        return false
    }

    private mutating func readDescriptor(control: (transparentIndex: Int?, disposal: GIFDisposal, delay: Int)?) throws -> GIFImageDescriptor {
        guard position + 9 <= bytes.count else { throw GIFError.truncated("the file ends inside an image descriptor") }
        func u16(_ offset: Int) -> Int { Int(bytes[position + offset]) | Int(bytes[position + offset + 1]) << 8 }
        let left = u16(0), top = u16(2), width = u16(4), height = u16(6)
        let flags = bytes[position + 8]
        position += 9
        var palette = globalPalette
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            guard position + size <= bytes.count else { throw GIFError.truncated("the file ends inside a local palette") }
            palette = position..<position + size
            position += size
        }
        guard position < bytes.count else { throw GIFError.truncated("the file ends before an image's LZW code size") }
        let codeSize = Int(bytes[position])
        position += 1
        // 1…11: a literal and the clear and end codes must fit the 12-bit
        // codes. The specification says 2…8; Chromium takes up to 11 too.
        guard (1...11).contains(codeSize) else { throw GIFError.invalid("LZW minimum code size \(codeSize) is not 1 to 11") }
        return GIFImageDescriptor(left: left, top: top, width: width, height: height, isInterlaced: flags & 0x40 != 0,
                                  palette: palette, transparentIndex: control?.transparentIndex,
                                  disposal: control?.disposal ?? .keep, delayCentiseconds: control?.delay,
                                  minimumCodeSize: codeSize)
    }

    /// A Graphic Control Extension's fields (nil when its block is shorter
    /// than the 4 bytes they take: ignored, as Chromium reads the bytes there).
    private mutating func readGraphicControl() throws -> (transparentIndex: Int?, disposal: GIFDisposal, delay: Int)? {
        guard position < bytes.count else { throw GIFError.truncated("the file ends inside a graphic control extension") }
        let length = Int(bytes[position])
        var fields: (transparentIndex: Int?, disposal: GIFDisposal, delay: Int)?
        if length >= 4, position + 5 <= bytes.count {
            let flags = bytes[position + 1]
            let disposal: GIFDisposal
            switch (flags >> 2) & 7 {
            case 2: disposal = .background
            case 3, 4: disposal = .previous
            default: disposal = .keep
            }
            fields = (flags & 1 != 0 ? Int(bytes[position + 4]) : nil, disposal,
                      Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8)
        }
        try skipSubBlocks()
        return fields
    }

    /// An application extension: the NETSCAPE2.0 (or ANIMEXTS1.0) loop count
    /// when it is one, the first such block read; others are skipped.
    private mutating func readApplication() throws {
        guard position < bytes.count else { throw GIFError.truncated("the file ends inside an application extension") }
        let length = Int(bytes[position])
        let isLoop = length == 11 && position + 12 <= bytes.count
            && (bytes[position + 1...position + 11].elementsEqual("NETSCAPE2.0".utf8)
                || bytes[position + 1...position + 11].elementsEqual("ANIMEXTS1.0".utf8))
        try skipSubBlock()
        if isLoop, position + 4 <= bytes.count, bytes[position] >= 3, bytes[position + 1] & 7 == 1, storedLoopCount == nil {
            storedLoopCount = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
        }
        try skipSubBlocks()
    }

    private mutating func skipSubBlock() throws {
        let length = Int(bytes[position])
        guard position + 1 + length <= bytes.count else { throw GIFError.truncated("the file ends inside an extension") }
        position += 1 + length
    }

    /// Skips sub-blocks up to and including the terminator.
    private mutating func skipSubBlocks() throws {
        while true {
            guard position < bytes.count else { throw GIFError.truncated("the file ends inside an extension") }
            if bytes[position] == 0 {
                position += 1
                return
            }
            try skipSubBlock()
        }
    }
}
