import Foundation
import Raster

/// Keeps a GIF's canvas as browsers show it and draws each frame's palette
/// indices onto it: the previous frame disposed of first (kept, its
/// rectangle cleared to transparent, or what was under it put back), then
/// the frame's pixels through its palette, its transparent index leaving the
/// canvas as it was, everything outside the canvas clipped, interlaced rows
/// put in their places. Palette entries past the palette's end are
/// transparent and a frame without any palette draws nothing, as in Chromium
/// (Skia's `SkGifImageReader`); Pillow shows such indices as grey levels and
/// gifsicle as black, so no tool agrees, and the browser is followed.
///
/// It holds the canvas and, only while a frame with "restore previous"
/// disposal is up, a copy of the part of the canvas under that frame.
struct GIFFrameCompositor: Sendable {
    let width: Int, height: Int
    /// The canvas, RGBA.
    private(set) var canvas: Bitmap
    /// The last frame's rectangle clipped to the canvas, and its disposal.
    private var pending: (rect: (x0: Int, y0: Int, x1: Int, y1: Int), disposal: GIFDisposal)?
    /// The pixels under the last frame's rectangle, for `.previous`.
    private var saved: [UInt32] = []

    /// A transparent canvas; the caller has checked the size against its limits.
    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        canvas = try Bitmap(width: width, height: height)
    }

    /// The rectangle of `frame` inside the canvas (empty when it lies outside).
    func clipped(_ frame: GIFImageDescriptor) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = min(frame.left, width), y0 = min(frame.top, height)
        return (x0, y0, max(x0, min(frame.left + frame.width, width)), max(y0, min(frame.top + frame.height, height)))
    }

    /// Disposes of the previous frame, then draws `frame`, whose first
    /// `count` indices (of `frame.width` per row, in the file's row order)
    /// are in `indices`; pixels past `count` (a frame cut short) are left as
    /// they were. `paletteBytes` is the file.
    mutating func draw(_ frame: GIFImageDescriptor, indices: UnsafeBufferPointer<UInt8>, count: Int, paletteBytes: Data) {
        let rect = clipped(frame)
        // The pixels are moved out while drawn so that `dispose` and `save`
        // may change the rest of `self`; a caller still holding the last
        // frame's bitmap makes this the one copy of the canvas per frame.
        var storage: [UInt8] = []
        swap(&storage, &canvas.pixels)
        defer { swap(&storage, &canvas.pixels) }
        storage.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            dispose(pixels)
            if frame.disposal == .previous { save(rect, from: pixels) }
            pending = (rect, frame.disposal)
            guard let palette = frame.palette, rect.x1 > rect.x0, rect.y1 > rect.y0, count > 0 else { return }
            let colors = Self.colors(paletteBytes[palette], transparentIndex: frame.transparentIndex)
            colors.withUnsafeBufferPointer { colors in
                let rows = (count + frame.width - 1) / frame.width
                for row in 0..<min(rows, frame.height) {
                    let y = frame.top + (frame.isInterlaced ? Self.interlacedRow(row, height: frame.height) : row)
                    guard y >= rect.y0, y < rect.y1 else { continue }
                    let start = row * frame.width
                    let end = min(start + (rect.x1 - frame.left), count)
                    var source = start + (rect.x0 - frame.left)
                    var target = y * width + rect.x0
                    while source < end {
                        let color = colors[Int(indices[source])]
                        if color != 0 { pixels[target] = color }
                        source += 1
                        target += 1
                    }
                }
            }
        }
    }

    /// The previous frame's disposal, applied to the canvas.
    private mutating func dispose(_ pixels: UnsafeMutableBufferPointer<UInt32>) {
        guard let (rect, disposal) = pending else { return }
        let rowLength = rect.x1 - rect.x0
        switch disposal {
        case .keep:
            break
        case .background:
            for y in rect.y0..<rect.y1 {
                let row = y * width + rect.x0
                for x in 0..<rowLength { pixels[row + x] = 0 }
            }
        case .previous:
            var i = 0
            for y in rect.y0..<rect.y1 {
                let row = y * width + rect.x0
                for x in 0..<rowLength { pixels[row + x] = saved[i + x] }
                i += rowLength
            }
            saved = []
        }
        pending = nil
    }

    private mutating func save(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int), from pixels: UnsafeMutableBufferPointer<UInt32>) {
        saved.removeAll(keepingCapacity: true)
        saved.reserveCapacity((rect.x1 - rect.x0) * (rect.y1 - rect.y0))
        for y in rect.y0..<rect.y1 {
            saved.append(contentsOf: pixels[y * width + rect.x0..<y * width + rect.x1])
        }
    }

    /// 256 RGBA words for the palette's entries (little-endian, as the
    /// canvas stores them): opaque colours, 0 for the transparent index and
    /// for indices past the palette's end. 0 means "leave the pixel".
    static func colors(_ rgb: Data, transparentIndex: Int?) -> [UInt32] {
        var colors = [UInt32](repeating: 0, count: 256)
        var i = rgb.startIndex, entry = 0
        while i + 2 < rgb.endIndex && entry < 256 {
            colors[entry] = UInt32(rgb[i]) | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2]) << 16 | 0xFF00_0000
            i += 3
            entry += 1
        }
        if let transparentIndex, transparentIndex < 256 { colors[transparentIndex] = 0 }
        return colors
    }

    /// The image row the `row`th row of an interlaced image's data fills:
    /// every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    static func interlacedRow(_ row: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8, pass2 = (height + 3) / 8, pass3 = (height + 1) / 4
        if row < pass1 { return row * 8 }
        if row < pass1 + pass2 { return (row - pass1) * 8 + 4 }
        if row < pass1 + pass2 + pass3 { return (row - pass1 - pass2) * 4 + 2 }
        return (row - pass1 - pass2 - pass3) * 2 + 1
    }
}
