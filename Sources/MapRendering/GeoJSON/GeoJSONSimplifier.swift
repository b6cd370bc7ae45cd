/// Douglas–Peucker as geojson-vt runs it once per feature: each vertex kept
/// at `squaredTolerance` gets the squared distance that kept it as its
/// importance, so a coarser zoom keeps those above its own tolerance. An
/// explicit stack, not recursion, so a million-vertex line cannot overflow
/// the thread's stack.
enum GeoJSONSimplifier {
    static func markImportance(_ vertices: inout [GeoJSONProjectedFeature.Vertex], squaredTolerance: Double) {
        guard vertices.count > 2 else { return }
        var stack = [(first: 0, last: vertices.count - 1)]
        while let (first, last) = stack.popLast() {
            var maxDistance = squaredTolerance
            let middle = first + (last - first) >> 1
            var closestToMiddle = last - first
            var index = -1
            let a = vertices[first], b = vertices[last]
            var i = first + 1
            while i < last {
                let distance = squaredSegmentDistance(vertices[i], a, b)
                if distance > maxDistance {
                    index = i
                    maxDistance = distance
                } else if distance == maxDistance {
                    // As geojson-vt: among equal distances, the pivot nearest the
                    // middle, so a long run of collinear points splits evenly.
                    let fromMiddle = abs(i - middle)
                    if fromMiddle < closestToMiddle {
                        index = i
                        closestToMiddle = fromMiddle
                    }
                }
                i += 1
            }
            if maxDistance > squaredTolerance, index >= 0 {
                vertices[index].importance = maxDistance
                if index - first > 1 { stack.append((first, index)) }
                if last - index > 1 { stack.append((index, last)) }
            }
        }
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    static func squaredSegmentDistance(_ p: GeoJSONProjectedFeature.Vertex, _ a: GeoJSONProjectedFeature.Vertex,
                                       _ b: GeoJSONProjectedFeature.Vertex) -> Double {
        var x = a.x, y = a.y
        var dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x; y = b.y
            } else if t > 0 {
                x += dx * t; y += dy * t
            }
        }
        dx = p.x - x
        dy = p.y - y
        return dx * dx + dy * dy
    }
}
