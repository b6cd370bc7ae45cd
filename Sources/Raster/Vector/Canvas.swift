import Foundation

/// Draws anti-aliased vector shapes into a bitmap.
///
/// Coverage is exact area (signed-area accumulation, as in font-rs and
/// stb_truetype's second rasteriser): every edge deposits, in each cell it
/// crosses, the signed area it bounds; a running sum along each row gives the
/// winding-weighted coverage of every pixel. Each shape is accumulated over
/// its own bounding box (clipped to the bitmap) in a reusable scratch buffer,
/// then composited source-over, so two shapes sharing an edge leave no seam.
public struct Canvas: Sendable {
    public var bitmap: Bitmap
    /// Coverage accumulation cells, reused between shapes.
    private var cells: [Float] = []
    /// Per row of the current shape: the first and last cell an edge touched
    /// (rows are swept only between them; coverage is zero elsewhere).
    private var rowSpans: [Int32] = []

    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
    }

    /// A canvas of `width` × `height` filled with `background`.
    public init(width: Int, height: Int, background: RGBA = .clear) throws {
        bitmap = try Bitmap(width: width, height: height, fill: background)
    }

    /// Fills `path` (every subpath treated as closed) with `color`.
    /// Throws `RasterError.invalidArgument` for a non-finite coordinate.
    public mutating func fill(_ path: Path, color: RGBA, rule: FillRule = .nonZero) throws {
        var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for subpath in path.subpaths {
            for p in subpath.points {
                guard p.isFinite else { throw RasterError.invalidArgument("path has a non-finite coordinate (\(p.x), \(p.y))") }
                bounds = (min(bounds.minX, p.x), min(bounds.minY, p.y), max(bounds.maxX, p.x), max(bounds.maxY, p.y))
            }
        }
        guard color.a > 0, bounds.minX <= bounds.maxX, !bitmap.isEmpty else { return }
        // Rows and columns the shape can touch; edges left of the box still count (clamped to its left side).
        let x0 = max(0, Int(bounds.minX.rounded(.down))), x1 = min(bitmap.width, Int(bounds.maxX.rounded(.up)) + 1)
        let y0 = max(0, Int(bounds.minY.rounded(.down))), y1 = min(bitmap.height, Int(bounds.maxY.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return }
        let width = x1 - x0, height = y1 - y0, stride = width + 2
        let needed = stride * height
        if cells.count < needed { cells = [Float](repeating: 0, count: needed) }
        if rowSpans.count < 2 * height { rowSpans = [Int32](repeating: 0, count: 2 * height) }
        for row in 0..<height {
            rowSpans[2 * row] = Int32.max
            rowSpans[2 * row + 1] = -1
        }

        cells.withUnsafeMutableBufferPointer { cells in
        rowSpans.withUnsafeMutableBufferPointer { spans in
            let accumulator = cells.baseAddress!
            for subpath in path.subpaths where subpath.points.count >= 2 {
                let points = subpath.points
                for i in 0..<points.count {
                    let a = points[i], b = points[i + 1 == points.count ? 0 : i + 1]
                    Self.accumulate(from: Point(a.x - Double(x0), a.y - Double(y0)), to: Point(b.x - Double(x0), b.y - Double(y0)),
                                    width: Double(width), height: height, stride: stride, into: accumulator, spans: spans.baseAddress!)
                }
            }
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                let destination = pixels.baseAddress!
                for row in 0..<height {
                    let first = Int(spans[2 * row]), last = Int(spans[2 * row + 1])
                    guard first <= last else { continue }
                    let line = accumulator + row * stride
                    var sum: Float = 0
                    var pixel = destination + ((y0 + row) * bitmap.width + x0 + first) * 4
                    for column in first..<min(width, last + 1) {
                        sum += line[column]
                        line[column] = 0
                        var coverage = abs(sum)
                        if rule == .evenOdd {
                            // Fold winding into 0…1 (1 → 1, 2 → 0, 3 → 1); rarely needed, so no fmod per pixel.
                            if coverage > 1 {
                                if coverage >= 2 { coverage -= 2 * (coverage * 0.5).rounded(.down) }
                                if coverage > 1 { coverage = 2 - coverage }
                            }
                        } else if coverage > 1 {
                            coverage = 1
                        }
                        if coverage > 0.5 / 255 { Self.blend(color, coverage: coverage, over: pixel) }
                        pixel += 4
                    }
                    var spill = max(first, width)  // cells past the right edge the sweep did not clear
                    while spill <= last {
                        line[spill] = 0
                        spill += 1
                    }
                }
            }
        }}
    }

    /// Strokes `path`'s outline with `color`: segments, joins and caps as `style` says.
    public mutating func stroke(_ path: Path, color: RGBA, style: StrokeStyle) throws {
        guard style.width.isFinite, style.width >= 0 else {
            throw RasterError.invalidArgument("stroke width must be a finite number ≥ 0, got \(style.width)")
        }
        try fill(Stroker.outline(of: path, style: style), color: color, rule: .nonZero)
    }

    /// Deposits the signed area of one edge (coordinates relative to the box).
    @inline(__always)
    private static func accumulate(from a: Point, to b: Point, width: Double, height: Int, stride: Int, into cells: UnsafeMutablePointer<Float>,
                                   spans: UnsafeMutablePointer<Int32>) {
        guard a.y != b.y else { return }
        let (direction, top, bottom): (Double, Point, Point) = a.y < b.y ? (1, a, b) : (-1, b, a)
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        let firstRow = max(0, Int(top.y.rounded(.down)))
        let endRow = min(height, Int(bottom.y.rounded(.up)))
        guard firstRow < endRow else { return }
        var x = top.x + (Double(firstRow) > top.y ? (Double(firstRow) - top.y) * slope : 0)
        for row in firstRow..<endRow {
            let rowTop = max(Double(row), top.y), rowBottom = min(Double(row + 1), bottom.y)
            let dy = rowBottom - rowTop
            let nextX = x + slope * dy
            let d = dy * direction
            // Clamp to the box: an edge left of it covers the whole row to its right.
            let xa = min(max(x, 0), width), xb = min(max(nextX, 0), width)
            let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
            let line = cells + row * stride
            let leftFloor = left.rounded(.down)
            let li = Int(leftFloor)
            let rightCeil = right.rounded(.up)
            let ri = Int(rightCeil)
            spans[2 * row] = min(spans[2 * row], Int32(li))
            spans[2 * row + 1] = max(spans[2 * row + 1], Int32(max(ri, li + 1)))
            if ri <= li + 1 {
                // Within one cell: the edge's mean x splits the area between it and the next.
                let mid = (left + right) / 2 - leftFloor
                line[li] += Float(d - d * mid)
                line[li + 1] += Float(d * mid)
            } else {
                let inverse = 1 / (right - left)
                let leftFraction = left - leftFloor
                let firstArea = 0.5 * inverse * (1 - leftFraction) * (1 - leftFraction)
                let rightFraction = right - rightCeil + 1
                let lastArea = 0.5 * inverse * rightFraction * rightFraction
                line[li] += Float(d * firstArea)
                if ri == li + 2 {
                    line[li + 1] += Float(d * (1 - firstArea - lastArea))
                } else {
                    let secondArea = inverse * (1.5 - leftFraction)
                    line[li + 1] += Float(d * (secondArea - firstArea))
                    var column = li + 2
                    while column < ri - 1 {
                        line[column] += Float(d * inverse)
                        column += 1
                    }
                    let beforeLast = secondArea + Double(ri - li - 3) * inverse
                    line[ri - 1] += Float(d * (1 - beforeLast - lastArea))
                }
                line[ri] += Float(d * lastArea)
            }
            x = nextX
        }
    }

    /// Composites `color` over the pixel at (x, y), which must be inside the bitmap.
    mutating func blendPixel(_ x: Int, _ y: Int, _ color: RGBA, coverage: Float = 1) {
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            Self.blend(color, coverage: coverage, over: pixels.baseAddress! + (y * bitmap.width + x) * 4)
        }
    }

    /// Source-over of `color` at `coverage` onto one straight-alpha pixel.
    @inline(__always)
    private static func blend(_ color: RGBA, coverage: Float, over pixel: UnsafeMutablePointer<UInt8>) {
        let sourceAlpha = coverage * Float(color.a) / 255
        let destinationAlpha = Float(pixel[3]) / 255
        if destinationAlpha == 1 {
            let keep = 1 - sourceAlpha
            pixel[0] = UInt8(Float(color.r) * sourceAlpha + Float(pixel[0]) * keep + 0.5)
            pixel[1] = UInt8(Float(color.g) * sourceAlpha + Float(pixel[1]) * keep + 0.5)
            pixel[2] = UInt8(Float(color.b) * sourceAlpha + Float(pixel[2]) * keep + 0.5)
            return
        }
        let outAlpha = sourceAlpha + destinationAlpha * (1 - sourceAlpha)
        guard outAlpha > 0 else { return }
        let weight = destinationAlpha * (1 - sourceAlpha)
        pixel[0] = UInt8(min(255, (Float(color.r) * sourceAlpha + Float(pixel[0]) * weight) / outAlpha + 0.5))
        pixel[1] = UInt8(min(255, (Float(color.g) * sourceAlpha + Float(pixel[1]) * weight) / outAlpha + 0.5))
        pixel[2] = UInt8(min(255, (Float(color.b) * sourceAlpha + Float(pixel[2]) * weight) / outAlpha + 0.5))
        pixel[3] = UInt8(min(255, outAlpha * 255 + 0.5))
    }
}
