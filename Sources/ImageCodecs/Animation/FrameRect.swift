/// A rectangle of an animation's canvas, in pixels: the part of a frame an
/// encoder stores. Both animated encoders store only the bounding box of the
/// pixels that changed since the frame before, which for the usual animation
/// (a moving figure on a still background) is a small part of the canvas.
struct FrameRect: Equatable, Sendable {
    var x: Int, y: Int, width: Int, height: Int

    /// The bounding box of the pixels where `a` and `b` (canvases of
    /// `width` × `height` words) differ; nil when none do.
    static func changed(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> FrameRect? {
        bounds(width: width, height: height) { a[$0] != b[$0] }
    }

    /// The bounding box of the canvas positions (row-major) for which `isIn` holds; nil when none does.
    static func bounds(width: Int, height: Int, where isIn: (Int) -> Bool) -> FrameRect? {
        var top = -1
        for y in 0..<height where (0..<width).contains(where: { isIn(y * width + $0) }) { top = y; break }
        guard top >= 0 else { return nil }
        var bottom = top
        for y in stride(from: height - 1, to: top, by: -1) where (0..<width).contains(where: { isIn(y * width + $0) }) { bottom = y; break }
        var left = width, right = -1
        for y in top...bottom {
            let row = y * width
            if let first = (0..<left).first(where: { isIn(row + $0) }) { left = first }
            if let last = (right + 1..<width).reversed().first(where: { isIn(row + $0) }) { right = last }
        }
        return FrameRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// The smallest rectangle holding both.
    func union(_ other: FrameRect) -> FrameRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return FrameRect(x: x0, y: y0, width: max(x + width, other.x + other.width) - x0,
                         height: max(y + height, other.y + other.height) - y0)
    }

    /// The canvas's words inside this rectangle, row by row.
    func pixels(of canvas: [UInt32], canvasWidth: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(width * height)
        for row in y..<y + height { out.append(contentsOf: canvas[row * canvasWidth + x..<row * canvasWidth + x + width]) }
        return out
    }

    /// `bitmap`'s RGBA pixels as little-endian words (red in the low byte), as canvases are compared.
    static func words(_ rgba: [UInt8]) -> [UInt32] {
        rgba.withUnsafeBytes { raw in
            (0..<raw.count / 4).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)) }
        }
    }
}
