/// A static KD-tree over points in the unit Web Mercator square, built once
/// and asked for the points in a box or within a radius, as supercluster's
/// index (kdbush) is: coordinates held as `Float` (as kdbush holds them, so
/// which neighbours fall inside a radius matches), leaves of `nodeSize`
/// points scanned linearly, levels split alternately on x and y at the median.
struct GeoJSONPointTree: Sendable {
    /// Points per leaf: below this a range is scanned rather than split.
    static let nodeSize = 64

    /// The caller's index of each point, in tree order.
    private var ids: [Int32]
    /// x, y of each point, in tree order.
    private var coordinates: [Float]

    /// A tree over `xs[i]`, `ys[i]`, reporting the indices `i`.
    init(xs: [Float], ys: [Float]) {
        ids = Array(0..<Int32(xs.count))
        coordinates = []
        coordinates.reserveCapacity(xs.count * 2)
        for i in xs.indices {
            coordinates.append(xs[i])
            coordinates.append(ys[i])
        }
        sort(0, xs.count - 1, axis: 0)
    }

    /// The indices of the points within `radius` of (`x`, `y`), boundary included.
    func within(_ x: Float, _ y: Float, radius: Float) -> [Int32] {
        var result: [Int32] = []
        let squared = radius * radius
        search(minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius) { index in
            let dx = coordinates[2 * index] - x, dy = coordinates[2 * index + 1] - y
            if dx * dx + dy * dy <= squared { result.append(ids[index]) }
        }
        return result
    }

    /// The indices of the points in the box, edges included.
    func range(minX: Float, minY: Float, maxX: Float, maxY: Float) -> [Int32] {
        var result: [Int32] = []
        search(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { result.append(ids[$0]) }
        return result
    }

    /// Calls `visit` with the tree position of every point in the box.
    private func search(minX: Float, minY: Float, maxX: Float, maxY: Float, _ visit: (Int) -> Void) {
        guard !ids.isEmpty else { return }
        var stack: [(left: Int, right: Int, axis: Int)] = [(0, ids.count - 1, 0)]
        while let (left, right, axis) = stack.popLast() {
            if right - left <= Self.nodeSize {
                for i in left...right {
                    let x = coordinates[2 * i], y = coordinates[2 * i + 1]
                    if x >= minX, x <= maxX, y >= minY, y <= maxY { visit(i) }
                }
                continue
            }
            let middle = (left + right) >> 1
            let x = coordinates[2 * middle], y = coordinates[2 * middle + 1]
            if x >= minX, x <= maxX, y >= minY, y <= maxY { visit(middle) }
            let value = axis == 0 ? x : y
            if (axis == 0 ? minX : minY) <= value { stack.append((left, middle - 1, 1 - axis)) }
            if (axis == 0 ? maxX : maxY) >= value { stack.append((middle + 1, right, 1 - axis)) }
        }
    }

    /// Orders `left...right` so its median on `axis` sits in the middle, the
    /// smaller before it and the larger after, then each half on the other axis.
    private mutating func sort(_ left: Int, _ right: Int, axis: Int) {
        guard right - left > Self.nodeSize else { return }
        let middle = (left + right) >> 1
        select(middle, left, right, axis: axis)
        sort(left, middle - 1, axis: 1 - axis)
        sort(middle + 1, right, axis: 1 - axis)
    }

    /// Quickselect (Hoare partition, middle pivot): the `k`th smallest on
    /// `axis` lands at `k`, no larger before it, no smaller after.
    private mutating func select(_ k: Int, _ left: Int, _ right: Int, axis: Int) {
        var left = left, right = right
        while right > left {
            let pivot = coordinates[2 * ((left + right) >> 1) + axis]
            var i = left, j = right
            while i <= j {
                while coordinates[2 * i + axis] < pivot { i += 1 }
                while coordinates[2 * j + axis] > pivot { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                right = j
            } else if k >= i {
                left = i
            } else {
                return
            }
        }
    }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        ids.swapAt(i, j)
        coordinates.swapAt(2 * i, 2 * j)
        coordinates.swapAt(2 * i + 1, 2 * j + 1)
    }
}
