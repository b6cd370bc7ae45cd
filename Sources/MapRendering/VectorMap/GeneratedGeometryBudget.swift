import Raster
import Synchronization

/// The stroke work one snapshot's `line` layers may cause (and the pixels
/// its `circle` layers shade, one unit each), shared by the
/// layers recorded at once (each on its own thread), charged for each line
/// before its dashes, offset copies, joins and caps are made: a hostile
/// style (a 100,000-length `line-dasharray` on a line 10⁹ pixels wide) then
/// fails fast instead of running for seconds and filling memory.
///
/// The unit is about one pixel of outline edge the rasteriser walks: a
/// stroke's cost grows with its length and, per vertex, with its width
/// (each segment's quad is as wide as the line, and each join and cap as
/// well), plus a few units per point for the memory and edges it makes.
final class GeneratedGeometryBudget: Sendable {
    /// `VectorMapLimits.generatedGeometryPerSnapshot`.
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Charged so far.
    var charged: Int { used.load(ordering: .relaxed) }

    /// Charges `cost` to `layer`; throws `VectorTileError` (`limitExceeded`)
    /// naming the layer, its `work` and the limit once the snapshot's total passes it.
    func charge(_ cost: Int, layer: String, work: String = "its lines' dashes, offsets and joins") throws {
        let total = used.add(cost, ordering: .relaxed).newValue
        guard total <= limit else {
            throw VectorTileError(.limitExceeded, "layer '\(layer)': \(work) would cost more than \(limit) units of stroke work in this snapshot, the limit (VectorMapLimits.generatedGeometryPerSnapshot)")
        }
    }

    /// The cost of stroking `lines` polylines of `points` points in all,
    /// `length` pixels long in all, with `style`: twice the length, three
    /// widths per point (a segment's ends, a join or cap), four units per
    /// point and one per chord of round joins and caps.
    static func strokeCost(lines: Int, points: Int, length: Double, closed: Bool, style: StrokeStyle) -> Int {
        let perLine = lines > 0 ? points / lines : 0
        let chords = lines * style.roundChordEstimate(vertexCount: perLine, closed: closed)
        let cost = 2 * length + 3 * Double(points) * style.width + Double(4 * points + chords)
        return cost.isFinite ? Int(min(cost, Double(Int.max / 4))) : Int.max / 4
    }
}
