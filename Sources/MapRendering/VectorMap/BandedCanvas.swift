import Dispatch
import Foundation
import Raster

/// A vector map's canvas split into horizontal bands drawn on every core at
/// once (MapLibre's software renderer, llvmpipe, rasterises on all cores too).
///
/// Fills and strokes are recorded (``Recording``), then each band replays them in order,
/// clipped to its rows: a stroke's outline pieces are built only for the
/// segments reaching the band, and every pixel gets the bytes one whole canvas
/// would give it (``Canvas`` works in bands of rows on a grid fixed by the
/// width, and the bands here are unions of that grid's bands). Recorded work
/// is replayed whenever it reaches ``pendingPointLimit`` points, so memory stays
/// about one canvas plus a bounded batch of geometry.
struct BandedCanvas {
    /// One recorded drawing operation.
    fileprivate enum Operation: Sendable {
        case fill(polygons: [[Point]], color: RGBA)
        case stroke(polylines: [(points: [Point], closed: Bool)], color: RGBA, style: StrokeStyle)
        case layer(pixels: [UInt8])
        case circles([CircleLayerDrawer.Circle])
        case lines(meshes: [ShadedTriangles], color: RGBA, feather: LineFeather)
        case gradientLines(meshes: [ShadedTriangles], gradient: LineGradient, feather: LineFeather)
        case shaded(polygons: [[Point]], antialiased: Bool, shader: @Sendable (Int, Int) -> SIMD4<Float>)
        case patternLines(meshes: [ShadedTriangles], pattern: SpritePattern, feather: LineFeather)
        case mapLibreFill(rings: [[Point]], depths: [[Double]], tiles: [PixelSquare], color: RGBA, outline: RGBA?, antialias: Bool)
    }

    private var bands: [Canvas]
    private var pending: [Operation] = []
    private var pendingPoints = 0
    /// Recorded points past which the batch is drawn before more is recorded.
    static let pendingPointLimit = 1 << 18

    /// A transparent `width` × `height` canvas in up to `bandCount` bands (one
    /// band draws on the calling thread).
    init(width: Int, height: Int, bandCount: Int) throws {
        let grid = Canvas.bandRows(width: width)
        let gridBands = max(1, (height + grid - 1) / grid)
        let count = max(1, min(bandCount, gridBands))
        // Band i holds grid bands [i·n/count, (i+1)·n/count), so each is whole grid bands.
        let rows = (0..<count).map { band in
            min(height, band * gridBands / count * grid)..<(band == count - 1 ? height : min(height, (band + 1) * gridBands / count * grid))
        }
        // Each band's pixels are allocated and cleared on its own thread (a
        // 2048² canvas is 16 MB to page in).
        bands = try [Result<Canvas, Error>](concurrentlyMaking: count) { band in
            Result { try Canvas(width: width, height: height, rows: rows[band]) }
        }.map { try $0.get() }
    }

    /// `canvas` (a whole one) to draw more on, as one band: for the layers a
    /// style puts above its symbols, drawn after them.
    init(continuing canvas: Canvas) {
        bands = [canvas]
    }

    /// Drawing operations recorded apart from any canvas (one layer's, made
    /// on any thread), drawn in order by ``draw(_:)``.
    struct Recording: Sendable {
        fileprivate var operations: [Operation] = []
        /// The points recorded.
        private(set) var points = 0

        /// Records a fill of `polygons` as one non-zero shape.
        mutating func fill(polygons: [[Point]], color: RGBA) {
            operations.append(.fill(polygons: polygons, color: color))
            points += polygons.reduce(0) { $0 + $1.count }
        }

        /// Records lines as ``drawLines(_:color:feather:)`` does, each coloured
        /// along its length by `gradient` at the progress its vertices' third value holds.
        mutating func drawLines(_ meshes: [ShadedTriangles], gradient: LineGradient, feather: LineFeather) {
            operations.append(.gradientLines(meshes: meshes, gradient: gradient, feather: feather))
            points += meshes.reduce(0) { $0 + $1.vertices.count }
        }

        /// Records a stroke of `polylines` as one shape.
        mutating func stroke(polylines: [(points: [Point], closed: Bool)], color: RGBA, style: StrokeStyle) {
            operations.append(.stroke(polylines: polylines, color: color, style: style))
            points += polylines.reduce(0) { $0 + $1.points.count }
        }

        /// Records lines tessellated as MapLibre tessellates them, each triangle
        /// shaded by `feather` and blended on its own (``ShadedTriangles``).
        mutating func drawLines(_ meshes: [ShadedTriangles], color: RGBA, feather: LineFeather) {
            operations.append(.lines(meshes: meshes, color: color, feather: feather))
            points += meshes.reduce(0) { $0 + $1.vertices.count }
        }

        /// Records a fill of `polygons` as one non-zero shape painted by
        /// `shader` (a layer's pattern): each pixel by its coverage when
        /// `antialiased`, else each pixel whose centre is inside, wholly.
        mutating func fill(polygons: [[Point]], antialiased: Bool, shader: @escaping @Sendable (Int, Int) -> SIMD4<Float>) {
            operations.append(.shaded(polygons: polygons, antialiased: antialiased, shader: shader))
            points += polygons.reduce(0) { $0 + $1.count }
        }

        /// Records lines as ``drawLines(_:color:feather:)`` does, each pixel
        /// coloured by `pattern` where it lies along and across its line
        /// (MapLibre's `line_pattern` shader).
        mutating func drawLines(_ meshes: [ShadedTriangles], pattern: SpritePattern, feather: LineFeather) {
            operations.append(.patternLines(meshes: meshes, pattern: pattern, feather: feather))
            points += meshes.reduce(0) { $0 + $1.vertices.count }
        }

        /// Records a fill as MapLibre draws it, with its points' depths under
        /// pitch and each ring's tile square
        /// (`Canvas.fillAsMapLibre(rings:depths:tiles:color:outline:antialias:)`).
        mutating func fillAsMapLibre(rings: [[Point]], depths: [[Double]], tiles: [PixelSquare], color: RGBA, outline: RGBA?, antialias: Bool) {
            operations.append(.mapLibreFill(rings: rings, depths: depths, tiles: tiles, color: color, outline: outline, antialias: antialias))
            points += rings.reduce(0) { $0 + $1.count }
        }

        /// This recording's fills as one shape painted by `shader` (a
        /// layer's pattern) instead of their colours, its strokes left out:
        /// one pass over the pixels however many paint groups the layer has.
        func shaded(by shader: @escaping @Sendable (Int, Int) -> SIMD4<Float>) -> Recording {
            var polygons: [[Point]] = []
            for case .fill(let rings, _) in operations { polygons += rings }
            var shaded = Recording()
            guard !polygons.isEmpty else { return shaded }
            shaded.operations.append(.shaded(polygons: polygons, antialiased: true, shader: shader))
            shaded.points = polygons.reduce(0) { $0 + $1.count }
            return shaded
        }

        /// Records a layer drawn pixel by pixel: premultiplied RGBA8 of the
        /// whole canvas, drawn source-over (`Canvas.composite(premultipliedLayer:)`).
        mutating func composite(premultipliedLayer pixels: [UInt8]) {
            operations.append(.layer(pixels: pixels))
            // Counted as its pixels, so a few such layers are drawn before more is recorded.
            points += pixels.count / 4
        }

        /// Records `circles`, shaded in order (`CircleLayerDrawer.draw(_:on:)`).
        mutating func shade(circles: [CircleLayerDrawer.Circle]) {
            operations.append(.circles(circles))
            points += circles.count
        }
    }

    /// Queues `recording`'s operations after those before (drawing the batch
    /// when it reaches ``pendingPointLimit`` points).
    mutating func draw(_ recording: Recording) throws {
        pending += recording.operations
        pendingPoints += recording.points
        try drawIfFull()
    }

    private mutating func drawIfFull() throws {
        if pendingPoints >= Self.pendingPointLimit { try drawPending() }
    }

    /// Draws everything queued, each band on its own thread.
    private mutating func drawPending() throws {
        let operations = pending
        pending.removeAll()
        pendingPoints = 0
        guard !operations.isEmpty else { return }
        if bands.count == 1 {
            for operation in operations { try Self.draw(operation, on: &bands[0]) }
            return
        }
        var failures = [Error?](repeating: nil, count: bands.count)
        bands.withUnsafeMutableBufferPointer { canvases in
            failures.withUnsafeMutableBufferPointer { errors in
                // Safe: iteration i touches only canvases[i] and errors[i], and
                // concurrentPerform returns only when every iteration has.
                nonisolated(unsafe) let (canvases, errors) = (canvases, errors)
                DispatchQueue.concurrentPerform(iterations: canvases.count) { band in
                    do {
                        for operation in operations { try Self.draw(operation, on: &canvases[band]) }
                    } catch {
                        errors[band] = error
                    }
                }
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
    }

    private static func draw(_ operation: Operation, on canvas: inout Canvas) throws {
        switch operation {
        case let .fill(polygons, color):
            try canvas.fill(polygons: polygons, color: color, rule: .nonZero)
        case let .stroke(polylines, color, style):
            try canvas.stroke(polylines: polylines, color: color, style: style)
        case let .layer(pixels):
            try canvas.composite(premultipliedLayer: pixels)
        case let .circles(circles):
            CircleLayerDrawer.draw(circles, on: &canvas)
        case let .lines(meshes, color, feather):
            let bounds = feather.radialBounds
            for mesh in meshes { try canvas.draw(mesh, color: color, bounds: bounds, shade: feather.alpha) }
        case let .gradientLines(meshes, gradient, feather):
            for mesh in meshes {
                try canvas.draw(mesh) { u, v, progress in gradient.color(progress: progress, alpha: feather.alpha(normalX: u, normalY: v, along: 0)) }
            }
        case let .shaded(polygons, antialiased, shader):
            if antialiased {
                try canvas.fill(polygons: polygons, rule: .nonZero, shader: shader)
            } else {
                canvas.fillPixelCentres(polygons: polygons, shader: shader)
            }
        case let .mapLibreFill(rings, depths, tiles, color, outline, antialias):
            canvas.fillAsMapLibre(rings: rings, depths: depths, tiles: tiles, color: color, outline: outline, antialias: antialias)
        case let .patternLines(meshes, pattern, feather):
            for mesh in meshes {
                try canvas.draw(mesh) { u, v, along in
                    let alpha = feather.alpha(normalX: u, normalY: v, along: 0)
                    guard alpha > 0 else { return .zero }
                    return SIMD4<Double>(pattern.lineColor(along: along, normal: v, outset: feather.outset)) * alpha
                }
            }
        }
    }

    /// Draws what is recorded and gives the whole canvas.
    mutating func finish() throws -> Canvas {
        try drawPending()
        return try Canvas(joining: &bands)
    }

    /// Draws what is recorded and gives the image, each band converted to
    /// straight alpha into its rows of it on its own thread (for a snapshot
    /// with nothing to draw on top).
    mutating func finishBitmap() throws -> Bitmap {
        try drawPending()
        return try Canvas.bitmap(joining: &bands)
    }
}
