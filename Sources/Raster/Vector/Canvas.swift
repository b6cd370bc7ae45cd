import Foundation

/// A drawing surface: fills and strokes paths, anti-aliased, source-over.
///
/// Pixels are kept premultiplied while drawing (so blending is one multiply-add
/// per channel); `bitmap` converts back to the straight alpha `Bitmap` stores.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied RGBA8, row order (internal so the text drawer can blend into it).
    var pixels: [UInt8]
    /// The largest coordinate magnitude a fill accepts (larger ones throw).
    public static let coordinateLimit = 1e12
    /// Scratch coverage storage reused across fills.
    private var accumulator = CoverageAccumulator(width: 0, height: 0)

    /// A canvas filled with `background` (transparent by default).
    public init(width: Int, height: Int, background: RGBA = .clear) throws {
        let bitmap = try Bitmap(width: width, height: height, fill: background)
        self.init(bitmap)
    }

    /// A canvas that draws over a copy of `bitmap`.
    public init(_ bitmap: Bitmap) {
        width = bitmap.width
        height = bitmap.height
        pixels = Premultiplication.premultiplied(bitmap.pixels)
    }

    /// The drawing so far as a straight-alpha bitmap.
    public var bitmap: Bitmap {
        var out = pixels
        Premultiplication.unpremultiply(&out)
        // Dimensions were validated when the canvas was made.
        return Bitmap(validatedWidth: width, height: height, pixels: out)
    }

    /// Fills `path` with `color`. Throws for NaN or infinite coordinates; empty
    /// paths and paths wholly off the canvas draw nothing.
    public mutating func fill(_ path: Path, color: RGBA, rule: FillRule = .nonZero) throws {
        try fill(polygons: path.flattened().map(\.points), color: color, rule: rule)
    }

    /// Fills several paths as one shape, in one pass: polygons that share edges
    /// (wound the same way) get full coverage along them, so no seam shows.
    ///
    /// Filling adjacent polygons in separate calls blends each edge pixel twice
    /// at partial coverage and leaves the classic faint seam; and polygons wound
    /// opposite ways partly cancel along a shared edge under `.nonZero` (as in
    /// AGG and font-rs). Batch same-colour regions here, wound consistently.
    public mutating func fill(_ paths: [Path], color: RGBA, rule: FillRule = .nonZero) throws {
        var polygons: [[Point]] = []
        for path in paths { polygons += try path.flattened().map(\.points) }
        try fill(polygons: polygons, color: color, rule: rule)
    }

    /// Fills closed polygons given as point lists (each implicitly closed).
    public mutating func fill(polygons: [[Point]], color: RGBA, rule: FillRule = .nonZero) throws {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for polygon in polygons {
            for p in polygon {
                // Beyond ±1e12 px, clipping arithmetic could overflow to infinity; no real drawing goes there.
                guard p.isFinite, abs(p.x) <= Canvas.coordinateLimit, abs(p.y) <= Canvas.coordinateLimit else {
                    throw RasterError.invalidArgument("polygon coordinate (\(p.x), \(p.y)) is not finite or beyond ±1e12")
                }
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard color.a != 0, minX <= maxX, !isEmptyCanvas else { return }
        // The window: the polygons' bounds clipped to the canvas. Parts left of it
        // still count (squashed onto its left edge), so holes and windings stay right.
        let x0 = Int(max(0, min(Double(width), minX.rounded(.down))))
        let x1 = Int(max(0, min(Double(width), maxX.rounded(.up))))
        let y0 = Int(max(0, min(Double(height), minY.rounded(.down))))
        let y1 = Int(max(0, min(Double(height), maxY.rounded(.up))))
        guard x1 > x0, y1 > y0 else { return }
        accumulator.reset(width: x1 - x0, height: y1 - y0)
        let ox = Double(x0), oy = Double(y0)
        for polygon in polygons where polygon.count >= 2 {
            var previous = polygon[polygon.count - 1]
            for p in polygon {
                accumulator.addLine(previous.x - ox, previous.y - oy, p.x - ox, p.y - oy)
                previous = p
            }
        }
        blendAccumulated(x0: x0, y0: y0, color: color, rule: rule)
    }

    private var isEmptyCanvas: Bool { width == 0 || height == 0 }

    /// Sweeps the accumulator window at (x0, y0) into the pixels with `color`:
    /// per row, a running sum of the cells over the touched span gives coverage,
    /// then source-over in premultiplied space. Cells are cleared as they are read.
    private mutating func blendAccumulated(x0: Int, y0: Int, color: RGBA, rule: FillRule) {
        let sa = UInt32(color.a)
        let sr = UInt32(Premultiplication.mul255(UInt32(color.r), sa))
        let sg = UInt32(Premultiplication.mul255(UInt32(color.g), sa))
        let sb = UInt32(Premultiplication.mul255(UInt32(color.b), sa))
        // The opaque colour as one RGBA word (little-endian byte order, as on every
        // platform Swift on Linux runs on), stored at once for full-coverage pixels.
        let solid = sr | sg << 8 | sb << 16 | 255 << 24
        let canvasWidth = width
        let rows = accumulator.height, stride = accumulator.stride
        let evenOdd = rule == .evenOdd
        for row in 0..<rows {
            let (first, last) = accumulator.span(ofRow: row)
            if first <= last {
                accumulator.cells.withUnsafeMutableBufferPointer { cells in
                    pixels.withUnsafeMutableBytes { bytes in
                        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        let words = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self)
                        let a = cells.baseAddress! + row * stride
                        let pixelBase = (y0 + row) * canvasWidth + x0
                        var sum: Float = 0
                        for x in first...last {
                            sum += a[x]
                            a[x] = 0
                            var v = abs(sum)
                            if evenOdd {
                                v = v.truncatingRemainder(dividingBy: 2)
                                if v > 1 { v = 2 - v }
                            } else if v > 1 {
                                v = 1
                            }
                            let coverage = UInt32(v * 255 + 0.5)
                            if coverage == 0 { continue }
                            if coverage == 255 && sa == 255 {
                                words[pixelBase + x] = solid
                                continue
                            }
                            let i = (pixelBase + x) * 4
                            let c = coverage + (coverage >> 7) // 0...255 → 0...256
                            let r = (sr * c) >> 8, g = (sg * c) >> 8, b = (sb * c) >> 8, al = (sa * c) >> 8
                            let inv = 255 - al
                            p[i] = UInt8(min(255, r + UInt32(Premultiplication.mul255(UInt32(p[i]), inv))))
                            p[i + 1] = UInt8(min(255, g + UInt32(Premultiplication.mul255(UInt32(p[i + 1]), inv))))
                            p[i + 2] = UInt8(min(255, b + UInt32(Premultiplication.mul255(UInt32(p[i + 2]), inv))))
                            p[i + 3] = UInt8(min(255, al + UInt32(Premultiplication.mul255(UInt32(p[i + 3]), inv))))
                        }
                    }
                }
            }
            accumulator.finishRow(row)
        }
    }
}

extension Canvas {
    /// Strokes `path` with `color`: every subpath, with the style's width, joins
    /// and caps (closed subpaths get a join where they close instead of caps).
    /// Throws for NaN or infinite coordinates or a non-positive or non-finite width.
    public mutating func stroke(_ path: Path, color: RGBA, style: StrokeStyle) throws {
        try stroke([path], color: color, style: style)
    }

    /// Strokes several paths as one shape, in one pass.
    public mutating func stroke(_ paths: [Path], color: RGBA, style: StrokeStyle) throws {
        guard style.width.isFinite, style.width > 0, style.width <= 1_000_000 else {
            throw RasterError.invalidArgument("stroke width \(style.width) must be finite and positive")
        }
        guard style.miterLimit.isFinite, style.miterLimit >= 1 else {
            throw RasterError.invalidArgument("miter limit \(style.miterLimit) must be finite and at least 1")
        }
        var polygons: [[Point]] = []
        for path in paths {
            for subpath in try path.flattened() {
                polygons += Stroker.outlines(of: subpath.points, closed: subpath.closed, style: style)
            }
        }
        try fill(polygons: polygons, color: color, rule: .nonZero)
    }
}
