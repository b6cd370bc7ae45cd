/// Decodes MVT geometry commands (MVT 2.1 §4.3) into a layer's flat arrays:
/// MoveTo / LineTo with zig-zag deltas from a cursor carried across parts,
/// ClosePath ending a ring. Each command's count is checked against the
/// bytes left and the tile's vertex allowance before any point is written,
/// so a count of half a billion costs nothing.
///
/// Structure enforced per type: points are MoveTo commands only; a line is
/// MoveTo(1) then LineTo(n ≥ 1); a ring is MoveTo(1), LineTo(n ≥ 1),
/// ClosePath(1). Rings are stored without repeating their first point, and
/// classified by the sign of their area (surveyor's formula in tile
/// coordinates): positive is exterior, otherwise interior. Coordinates wrap
/// at 32 bits, as in the fixtures' overflow cases (real tiles stay near 0…extent).
struct VectorTileGeometryDecoder {
    private enum Command: UInt32 {
        case moveTo = 1, lineTo = 2, closePath = 7
    }

    /// Points written through a pointer (no uniqueness or capacity check per
    /// point; capacity is made once per command), copied into an array once.
    private final class PointStorage {
        var base: UnsafeMutablePointer<VectorTilePoint>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        @inline(__always)
        func reserve(_ extra: Int) {
            if extra > capacity - count { grow(extra) }
        }

        private func grow(_ extra: Int) {
            let newCapacity = max(count + extra, capacity * 2)
            let grown = UnsafeMutablePointer<VectorTilePoint>.allocate(capacity: newCapacity)
            grown.initialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }
    }

    let limits: VectorTileLimits
    private var storage: PointStorage
    private(set) var partStarts: [UInt32] = [0]
    private(set) var partIsExterior = [Bool]()

    /// A decoder expecting about `vertices` points in `parts` parts.
    init(limits: VectorTileLimits, vertices: Int, parts: Int) {
        self.limits = limits
        storage = PointStorage(capacity: vertices)
        partStarts.reserveCapacity(parts + 1)
        partIsExterior.reserveCapacity(parts)
    }

    var partCount: Int { partIsExterior.count }

    /// The points decoded so far, as an array.
    var points: [VectorTilePoint] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    mutating func decode(_ geometry: ProtobufReader, type: VectorTileGeometryType, budget: inout VectorTileDecoder.Budget) throws {
        var reader = geometry
        var x: Int32 = 0, y: Int32 = 0
        var first = true
        while !reader.isAtEnd {
            let (command, count) = try readCommand(&reader)
            switch type {
            case .point:
                guard command == .moveTo, count > 0 else {
                    throw VectorTileError(.corrupt, "point geometry has \(name(command)) with count \(count); only MoveTo with a count above 0 is allowed")
                }
                try readPoints(count, from: &reader, x: &x, y: &y, budget: &budget)
                if first { endPart(exterior: false) } else { partStarts[partStarts.count - 1] = UInt32(storage.count) }
            case .lineString, .polygon:
                guard command == .moveTo, count == 1 else {
                    throw VectorTileError(.corrupt, "\(type == .polygon ? "a ring" : "a line") starts with \(name(command)) count \(count), not MoveTo count 1")
                }
                let start = storage.count
                try readPoints(1, from: &reader, x: &x, y: &y, budget: &budget)
                let (lineTo, lineCount) = reader.isAtEnd ? (Command.closePath, 0) : try readCommand(&reader)
                guard lineTo == .lineTo, lineCount > 0 else {
                    throw VectorTileError(.corrupt, "a MoveTo is followed by \(reader.isAtEnd && lineCount == 0 ? "the end of the geometry" : "\(name(lineTo)) count \(lineCount)"), not LineTo with a count above 0")
                }
                try readPoints(lineCount, from: &reader, x: &x, y: &y, budget: &budget)
                if type == .polygon {
                    guard !reader.isAtEnd else { throw VectorTileError(.corrupt, "a ring ends without ClosePath") }
                    let (close, closeCount) = try readCommand(&reader)
                    guard close == .closePath, closeCount == 1 else {
                        throw VectorTileError(.corrupt, "a ring ends with \(name(close)) count \(closeCount), not ClosePath count 1")
                    }
                    endPart(exterior: signedDoubleArea(from: start) > 0)
                } else {
                    endPart(exterior: false)
                }
            case .unknown:
                // No structure to check: each MoveTo starts a part, ClosePath is ignored.
                switch command {
                case .moveTo:
                    if !first { endPart(exterior: false) }
                    try readPoints(count, from: &reader, x: &x, y: &y, budget: &budget)
                case .lineTo:
                    guard !first else { throw VectorTileError(.corrupt, "geometry begins with LineTo") }
                    try readPoints(count, from: &reader, x: &x, y: &y, budget: &budget)
                case .closePath:
                    guard !first else { throw VectorTileError(.corrupt, "geometry begins with ClosePath") }
                }
            }
            first = false
        }
        if type == .unknown && !first { endPart(exterior: false) }
    }

    private func name(_ command: Command) -> String {
        switch command {
        case .moveTo: return "MoveTo"
        case .lineTo: return "LineTo"
        case .closePath: return "ClosePath"
        }
    }

    private func readCommand(_ reader: inout ProtobufReader) throws -> (Command, UInt32) {
        let integer = try reader.uint32("a geometry command")
        guard let command = Command(rawValue: integer & 7) else {
            throw VectorTileError(.corrupt, "geometry command id \(integer & 7) is not MoveTo (1), LineTo (2) or ClosePath (7)")
        }
        return (command, integer >> 3)
    }

    @inline(__always)
    private mutating func readPoints(_ count: UInt32, from reader: inout ProtobufReader, x: inout Int32, y: inout Int32,
                                     budget: inout VectorTileDecoder.Budget) throws {
        // Each parameter is at least one byte: a count the bytes cannot hold is
        // refused before anything is allocated or read.
        guard UInt64(count) * 2 <= UInt64(reader.remaining) else {
            throw VectorTileError(.corrupt, "command count \(count) needs \(UInt64(count) * 2) parameters, but only \(reader.remaining) bytes of geometry remain")
        }
        guard Int(count) <= budget.vertices else {
            throw VectorTileError(.limitExceeded, "the tile holds more than \(limits.verticesPerTile) vertices (the limit)")
        }
        budget.vertices -= Int(count)
        storage.reserve(Int(count))
        var out = storage.base + storage.count
        for _ in 0..<count {
            let dx = try reader.uint32("a geometry parameter")
            let dy = try reader.uint32("a geometry parameter")
            x &+= ProtobufReader.zigZag32(dx)
            y &+= ProtobufReader.zigZag32(dy)
            out.initialize(to: VectorTilePoint(x: x, y: y))
            out += 1
        }
        storage.count += Int(count)
    }

    private mutating func endPart(exterior: Bool) {
        partStarts.append(UInt32(storage.count))
        partIsExterior.append(exterior)
    }

    /// Twice the ring's signed area from `start` to the last point
    /// (positive when clockwise with y down).
    private func signedDoubleArea(from start: Int) -> Double {
        var sum = 0.0
        let points = storage.base
        var previous = points[storage.count - 1]
        for i in start..<storage.count {
            let point = points[i]
            sum += Double(Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y))
            previous = point
        }
        return sum
    }
}
