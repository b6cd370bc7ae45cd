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
    /// The rows this canvas holds: all of them, or one band of a drawing split
    /// into bands drawn in parallel (see ``init(width:height:rows:background:)``).
    public let rows: Range<Int>
    /// Premultiplied RGBA8 of `rows`, row order (internal so the text drawer can blend into it).
    var pixels: [UInt8]
    /// The largest coordinate magnitude a fill accepts (larger ones throw).
    public static let coordinateLimit = 1e12
    /// Scratch coverage storage reused across fills.
    private var accumulator = CoverageAccumulator(width: 0, height: 0)

    /// A canvas filled with `background` (transparent by default).
    public init(width: Int, height: Int, background: RGBA = .clear) throws {
        try self.init(width: width, height: height, rows: 0..<height, background: background)
    }

    /// The band `rows` of a `width` × `height` canvas filled with `background`:
    /// coordinates are those of the whole canvas, and drawing reaches only
    /// these rows. Bands of one drawing can be drawn at once on several threads
    /// and put back together with ``init(joining:)``; each pixel comes out as the
    /// whole canvas would draw it, since fills and strokes work in bands of rows
    /// fixed by the canvas width (``bandRows(width:)``) whatever rows are held.
    public init(width: Int, height: Int, rows: Range<Int>, background: RGBA = .clear) throws {
        try Bitmap.validate(width: width, height: height)
        guard rows.lowerBound >= 0, rows.upperBound <= height else {
            throw RasterError.invalidArgument("rows \(rows) are outside a canvas \(height) high")
        }
        self.width = width
        self.height = height
        self.rows = rows
        // Premultiplied once, filled once: no straight-alpha bitmap to convert.
        let a = UInt32(background.a)
        pixels = Bitmap.pixels(count: width * rows.count, repeating: RGBA(
            Premultiplication.mul255(UInt32(background.r), a), Premultiplication.mul255(UInt32(background.g), a),
            Premultiplication.mul255(UInt32(background.b), a), background.a))
    }

    /// A canvas that draws over a copy of `bitmap`.
    public init(_ bitmap: Bitmap) {
        width = bitmap.width
        height = bitmap.height
        rows = 0..<bitmap.height
        pixels = Premultiplication.premultiplied(bitmap.pixels)
    }

    /// The whole canvas the bands of `bands` make, top to bottom; `bands` is
    /// emptied as it is read, so the pixels are held about once. Throws unless
    /// the bands are of one canvas and hold every row of it exactly once, in order.
    public init(joining bands: inout [Canvas]) throws {
        try Canvas.checkJoin(bands)
        let first = bands[0]
        width = first.width
        height = first.height
        rows = 0..<first.height
        if bands.count == 1 {
            pixels = bands.removeFirst().pixels
            return
        }
        pixels = []
        pixels.reserveCapacity(width * height * 4)
        // Last band first off the array, so each band's storage is freed once copied.
        bands.reverse()
        while let band = bands.popLast() { pixels += band.pixels }
    }

    /// The straight-alpha bitmap of the whole canvas the bands of `bands` make
    /// (see ``init(joining:)``), each band converted into its rows of the one
    /// bitmap on its own thread: no joined premultiplied copy is made. `bands` is emptied.
    public static func bitmap(joining bands: inout [Canvas]) throws -> Bitmap {
        try checkJoin(bands)
        let (width, height) = (bands[0].width, bands[0].height)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            bands.withUnsafeBufferPointer { bands in
                // Safe: band i writes only its own rows of `buffer`, the bands' rows
                // do not overlap (checked above), and concurrentPerform returns only
                // when every band has.
                nonisolated(unsafe) let (bands, buffer) = (bands, buffer)
                DispatchQueue.concurrentPerform(iterations: bands.count) { i in
                    let band = bands[i]
                    guard width > 0, !band.rows.isEmpty else { return }
                    band.pixels.withUnsafeBufferPointer { source in
                        Premultiplication.unpremultiply(source.baseAddress!, count: width * band.rows.count,
                                                        into: buffer.baseAddress! + band.rows.lowerBound * width * 4)
                    }
                }
            }
            initialized = width * height * 4
        }
        bands.removeAll()
        return Bitmap(validatedWidth: width, height: height, pixels: pixels)
    }

    /// Throws unless `bands` are bands of one canvas holding every row of it exactly once, in order.
    private static func checkJoin(_ bands: [Canvas]) throws {
        guard let first = bands.first else { throw RasterError.invalidArgument("no bands to join") }
        var next = 0
        for band in bands {
            guard band.width == first.width, band.height == first.height, band.rows.lowerBound == next else {
                throw RasterError.invalidArgument("bands do not make one canvas: rows \(band.rows) after row \(next)")
            }
            next = band.rows.upperBound
        }
        guard next == first.height else { throw RasterError.invalidArgument("bands end at row \(next), not \(first.height)") }
    }

    /// The drawing so far as a straight-alpha bitmap (of the rows held).
    public var bitmap: Bitmap {
        let count = width * rows.count
        let out = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            if count > 0 {
                pixels.withUnsafeBufferPointer { Premultiplication.unpremultiply($0.baseAddress!, count: count, into: buffer.baseAddress!) }
            }
            initialized = count * 4
        }
        // Dimensions were validated when the canvas was made.
        return Bitmap(validatedWidth: width, height: rows.count, pixels: out)
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
        try fill(PolygonList(polygons), color: color, rule: rule)
    }

    /// Fills the rings of `polygons` as one shape.
    mutating func fill(_ polygons: PolygonList, color: RGBA, rule: FillRule) throws {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in polygons.points {
            // Beyond ±1e12 px, clipping arithmetic could overflow to infinity; no real drawing goes there.
            guard p.isFinite, abs(p.x) <= Canvas.coordinateLimit, abs(p.y) <= Canvas.coordinateLimit else {
                throw RasterError.invalidArgument("polygon coordinate (\(p.x), \(p.y)) is not finite or beyond ±1e12")
            }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard color.a != 0, minX <= maxX, !isEmptyCanvas else { return }
        // The window: the polygons' bounds clipped to the canvas. Parts left of it
        // still count (squashed onto its left edge), so holes and windings stay right.
        let x0 = Int(max(0, min(Double(width), minX.rounded(.down))))
        let x1 = Int(max(0, min(Double(width), maxX.rounded(.up))))
        let y0 = Int(max(Double(rows.lowerBound), min(Double(rows.upperBound), minY.rounded(.down))))
        let y1 = Int(max(Double(rows.lowerBound), min(Double(rows.upperBound), maxY.rounded(.up))))
        guard x1 > x0, y1 > y0 else { return }
        // A band of rows at a time: the coverage cells stay a few hundred KiB (in
        // cache while swept, and no canvas-sized buffer to zero and page in),
        // at the price of visiting every edge once per band (most leave at once).
        // Bands lie on a grid fixed by the canvas width, not by the shape or the
        // rows held, so a canvas drawn in parallel bands gives the same bytes.
        let bandRows = Canvas.bandRows(width: width)
        var top = y0
        while top < y1 {
            let bottom = min(y1, (top / bandRows + 1) * bandRows)
            accumulator.reset(width: x1 - x0, height: bottom - top)
            accumulator.add(polygons, dx: Double(x0), dy: Double(top))
            blendAccumulated(x0: x0, y0: top, color: color, rule: rule)
            top = bottom
        }
    }

    /// Coverage cells per band of a fill (as Floats: 512 KiB).
    static let bandCells = 128 << 10

    /// The height of the bands of rows fills and strokes work in, on a canvas
    /// `width` pixels wide: as many rows (at least 16) as keep a band of
    /// coverage cells within 512 KiB. Bands start at row 0; a canvas split into
    /// bands for parallel drawing is best split on multiples of it.
    public static func bandRows(width: Int) -> Int {
        max(16, bandCells / (width + 2))
    }

    private var isEmptyCanvas: Bool { width == 0 || height == 0 || rows.isEmpty }

    /// Sweeps the accumulator window at (x0, y0) into the pixels with `color`:
    /// per row, a running sum of the cells over the touched span gives coverage,
    /// then source-over in premultiplied space. Cells are cleared as they are read.
    ///
    /// Cells are nonzero only where an edge passes, so coverage is constant from
    /// one nonzero cell to the next: each such run is handled at once, as a
    /// solid fill (full coverage of an opaque colour: the interiors that are
    /// most of a map), a skip (no coverage), or one blend factor for every pixel.
    private mutating func blendAccumulated(x0: Int, y0: Int, color: RGBA, rule: FillRule) {
        let sa = UInt32(color.a)
        let source = Canvas.premultiplied(color)
        // The opaque colour as one RGBA word (little-endian byte order, as on every
        // platform Swift on Linux runs on), stored at once for full-coverage pixels.
        let solid = source[0] | source[1] << 8 | source[2] << 16 | 255 << 24
        let opaque = sa == 255
        let canvasWidth = width, firstRow = self.rows.lowerBound
        let rows = accumulator.height, stride = accumulator.stride
        let evenOdd = rule == .evenOdd
        for row in 0..<rows {
            let (first, last) = accumulator.span(ofRow: row)
            if first <= last {
                accumulator.cells.withUnsafeMutableBufferPointer { cells in
                    pixels.withUnsafeMutableBytes { bytes in
                        let words = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self) + (y0 + row - firstRow) * canvasWidth + x0
                        let a = cells.baseAddress! + row * stride
                        var sum: Float = 0
                        var x = first
                        while x <= last {
                            // Eight pixels with an edge among them: each its own coverage,
                            // blended together (an edge is mostly runs of one pixel).
                            if x + 8 <= last + 1 && Canvas.hasEdge(a + x) {
                                // Unrolled: a lane written at a time would go through memory.
                                @inline(__always) func next(_ lane: Int) -> UInt32 {
                                    sum += a[x + lane]
                                    return Canvas.coverage(sum, evenOdd: evenOdd)
                                }
                                let (c0, c1, c2, c3) = (next(0), next(1), next(2), next(3))
                                let (c4, c5, c6, c7) = (next(4), next(5), next(6), next(7))
                                let coverages = SIMD8<UInt32>(c0, c1, c2, c3, c4, c5, c6, c7)
                                UnsafeMutableRawPointer(a + x).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
                                if opaque && coverages == SIMD8(repeating: 255) {
                                    (words + x).update(repeating: solid, count: 8)
                                } else if coverages != SIMD8() {
                                    Canvas.blend(source, coverages: coverages, into: words + x)
                                }
                                x += 8
                                continue
                            }
                            sum += a[x]
                            a[x] = 0
                            // The run of pixels sharing this coverage: up to the next nonzero cell.
                            var end = x + 1
                            // Eight cells at a time through the long empty stretches of
                            // wide spans (shifting out the sign bits counts −0 as 0).
                            while end + 8 <= last + 1 {
                                let raw = UnsafeRawPointer(a + end)
                                let bits = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                                    | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                                if bits & 0x7FFF_FFFF_7FFF_FFFF != 0 { break }
                                end += 8
                            }
                            while end <= last && a[end] == 0 { end += 1 }
                            let coverage = Canvas.coverage(sum, evenOdd: evenOdd)
                            if coverage == 255 && opaque {
                                (words + x).update(repeating: solid, count: end - x)
                            } else if coverage != 0 {
                                Canvas.blend(source, coverage: coverage, into: words + x, count: end - x)
                            }
                            x = end
                        }
                    }
                }
            }
            accumulator.finishRow(row)
        }
    }

    /// `color` premultiplied, one channel per lane, as `blend` takes it.
    static func premultiplied(_ color: RGBA) -> SIMD4<UInt32> {
        let a = UInt32(color.a)
        return SIMD4<UInt32>(UInt32(Premultiplication.mul255(UInt32(color.r), a)), UInt32(Premultiplication.mul255(UInt32(color.g), a)),
                             UInt32(Premultiplication.mul255(UInt32(color.b), a)), a)
    }

    /// Coverage 0...255 of a winding-weighted area sum under the fill rule.
    @inline(__always)
    private static func coverage(_ sum: Float, evenOdd: Bool) -> UInt32 {
        var v = abs(sum)
        if evenOdd {
            // v mod 2, folded so 1 is full: odd windings inside, even outside.
            // Truncation instead of fmod (a libm call per pixel). Past 2²⁴ a Float
            // holds only even integers, so capping there keeps the conversion safe.
            v -= 2 * Float(Int32(min(v * 0.5, 16_777_216)))
            if v > 1 { v = 2 - v }
        } else if v > 1 {
            v = 1
        }
        return UInt32(v * 255 + 0.5)
    }

    /// True if one of the eight cells at `cells` is nonzero (shifting out the sign bits counts −0 as 0).
    @inline(__always)
    private static func hasEdge(_ cells: UnsafePointer<Float>) -> Bool {
        let raw = UnsafeRawPointer(cells)
        let bits = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        return bits & 0x7FFF_FFFF_7FFF_FFFF != 0
    }

    /// Source-over of the premultiplied `source` onto eight pixels, each at its
    /// own coverage: `blend(_:coverage:into:count:)`'s arithmetic, a channel
    /// of eight pixels per vector.
    @inline(__always)
    static func blend(_ source: SIMD4<UInt32>, coverages: SIMD8<UInt32>, into words: UnsafeMutablePointer<UInt32>) {
        typealias Lanes = SIMD8<UInt32>
        let c = coverages &+ (coverages &>> 7)  // 0...255 → 0...256
        let scaledAlpha = (Lanes(repeating: source[3]) &* c) &>> 8
        let inverse = 255 &- scaledAlpha
        let raw = UnsafeMutableRawPointer(words)
        let destination = raw.loadUnaligned(as: Lanes.self)
        @inline(__always) func channel(_ shift: UInt32, _ scaled: Lanes) -> Lanes {
            let t = ((destination &>> shift) & 0xFF) &* inverse &+ 128
            let out = scaled &+ ((t &+ (t &>> 8)) &>> 8)
            return (out & 0xFF | (0 &- (out &>> 8)) & 0xFF) &<< shift  // saturated at 255
        }
        let red = channel(0, (Lanes(repeating: source[0]) &* c) &>> 8)
        let green = channel(8, (Lanes(repeating: source[1]) &* c) &>> 8)
        let blue = channel(16, (Lanes(repeating: source[2]) &* c) &>> 8)
        raw.storeBytes(of: red | green | blue | channel(24, scaledAlpha), as: Lanes.self)
    }

    /// Source-over of the premultiplied `source` at `coverage` onto `count` pixels
    /// (also how text blends its glyph coverage).
    @inline(__always)
    static func blend(_ source: SIMD4<UInt32>, coverage: UInt32, into words: UnsafeMutablePointer<UInt32>, count: Int) {
        let c = coverage + (coverage >> 7) // 0...255 → 0...256
        let scaled = (source &* c) &>> 8
        let inverse = 255 - scaled[3]
        var i = 0
        if count >= 4 {
            // Four pixels at a time in 16-bit lanes, the same arithmetic as below:
            // d · inv + 128 ≤ 65 153 and the sums after it stay within 16 bits.
            let s = SIMD4<UInt16>(truncatingIfNeeded: scaled)
            let lanes = SIMD16<UInt16>(lowHalf: SIMD8(lowHalf: s, highHalf: s), highHalf: SIMD8(lowHalf: s, highHalf: s))
            let inverse16 = SIMD16<UInt16>(repeating: UInt16(inverse))
            let raw = UnsafeMutableRawPointer(words)
            while i + 4 <= count {
                let destination = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self))
                let t = destination &* inverse16 &+ 128
                let out = pointwiseMin(lanes &+ ((t &+ (t &>> 8)) &>> 8), SIMD16<UInt16>(repeating: 255))
                raw.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: out), toByteOffset: i * 4, as: SIMD16<UInt8>.self)
                i += 4
            }
        }
        while i < count {
            defer { i += 1 }
            let p = words[i]
            let destination = SIMD4<UInt32>(p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF, p >> 24)
            // (d · inv + 127) / 255 with the exact divide-by-255 of (t + 1 + (t >> 8)) >> 8.
            let t = destination &* inverse &+ 128
            var out = scaled &+ ((t &+ (t &>> 8)) &>> 8)
            out = out & 0xFF | (0 &- (out &>> 8)) & 0xFF    // saturate at 255
            words[i] = out[0] | out[1] << 8 | out[2] << 16 | out[3] << 24
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
    ///
    /// A stroke at most `hairlineWidth` wide is drawn as hairlines: each pixel
    /// gets the line's area in it (its length there times the width), and the
    /// joins and caps, which fall inside single pixels, are left out. A map's
    /// borders draw several times faster; a pixel differs from the outlined
    /// stroke by at most a quarter of full coverage, at sharp corners.
    public mutating func stroke(_ paths: [Path], color: RGBA, style: StrokeStyle) throws {
        try Canvas.validate(style)
        var polylines: [(points: [Point], closed: Bool)] = []
        for path in paths { polylines += try path.flattened() }
        try strokeFlattened(polylines, color: color, style: style)
    }

    /// Strokes point lists as one shape, in one pass, as ``stroke(_:color:style:)-([Path],_,_)``
    /// strokes the paths they make (`closed`: the last point joins the first),
    /// without building the paths. Lists of fewer than two points draw nothing.
    public mutating func stroke(polylines: [(points: [Point], closed: Bool)], color: RGBA, style: StrokeStyle) throws {
        try Canvas.validate(style)
        for polyline in polylines {
            for p in polyline.points where !p.isFinite {
                throw RasterError.invalidArgument("path coordinate (\(p.x), \(p.y)) is not finite")
            }
        }
        // Filtered only when needed: a copy of the list per band per stroke otherwise.
        try strokeFlattened(polylines.allSatisfy { $0.points.count >= 2 } ? polylines : polylines.filter { $0.points.count >= 2 },
                            color: color, style: style)
    }

    /// Strokes point lists as hairlines `width` pixels wide (at most one), in
    /// one pass, whatever ``hairlineWidth`` says: each pixel gets the lines' area
    /// in it, with no joins or caps (so a pixel at a sharp corner may get up to
    /// about 40 % less than an outlined stroke would give it). How MapLibre
    /// draws a fill's one-pixel outline: plain antialiased lines, no joins.
    public mutating func strokeHairlines(polylines: [(points: [Point], closed: Bool)], color: RGBA, width: Double) throws {
        guard width.isFinite, width > 0, width <= 1 else {
            throw RasterError.invalidArgument("hairline width \(width) must be in (0, 1]")
        }
        var hairlines = HairlineRasterizer(width: self.width, rows: rows, lineWidth: width)
        for subpath in polylines where subpath.points.count >= 2 { try hairlines.add(subpath.points, closed: subpath.closed) }
        guard color.a != 0 else { return }
        hairlines.draw(into: &pixels, source: Canvas.premultiplied(color))
    }

    /// Throws for a width or miter limit no stroke can have.
    private static func validate(_ style: StrokeStyle) throws {
        guard style.width.isFinite, style.width > 0, style.width <= 1_000_000 else {
            throw RasterError.invalidArgument("stroke width \(style.width) must be finite and positive")
        }
        guard style.miterLimit.isFinite, style.miterLimit >= 1 else {
            throw RasterError.invalidArgument("miter limit \(style.miterLimit) must be finite and at least 1")
        }
    }

    /// Strokes flattened subpaths (each of at least two finite points).
    private mutating func strokeFlattened(_ polylines: [(points: [Point], closed: Bool)], color: RGBA, style: StrokeStyle) throws {
        if style.width <= Canvas.hairlineWidth {
            var hairlines = HairlineRasterizer(width: width, rows: rows, lineWidth: style.width)
            for subpath in polylines { try hairlines.add(subpath.points, closed: subpath.closed) }
            guard color.a != 0 else { return }
            hairlines.draw(into: &pixels, source: Canvas.premultiplied(color))
            return
        }
        try strokeOutlines(polylines, color: color, style: style)
    }

    /// The widest stroke drawn as hairlines, in pixels. At 1 px the joins left
    /// out would reach 40 % of a pixel at sharp corners; at 0.8, a quarter.
    public static let hairlineWidth = 0.8

    /// Strokes `paths` by filling their outlines: a quadrilateral per segment
    /// plus joins and caps (every width; `stroke` uses it above `hairlineWidth`).
    mutating func strokeOutlines(_ polylines: [(points: [Point], closed: Bool)], color: RGBA, style: StrokeStyle) throws {
        // Segments that cannot reach the canvas are left out. How far a stroke
        // reaches from a vertex: a miter tip up to the limit × half the width, a
        // square cap's corner √2 ×; plus a pixel of margin for antialiasing.
        let reach = style.width / 2 * max(1.5, style.join == .miter ? style.miterLimit : 1) + 1
        var pieces = PolygonList()
        for subpath in polylines {
            let runs = StrokeCulling.visibleRuns(of: subpath.points, closed: subpath.closed, minX: -reach, minY: Double(rows.lowerBound) - reach,
                                                 maxX: Double(width) + reach, maxY: Double(rows.upperBound) + reach, limit: Canvas.coordinateLimit)
            for run in runs { Stroker.appendOutlines(of: run.points, closed: run.closed, style: style, to: &pieces) }
        }
        try fill(pieces, color: color, rule: .nonZero)
    }
}
