/// One stream of a MapLibre Tile column: its header (what it holds, how it
/// is encoded, how many values) and its bytes, and the decoding of those
/// bytes into integers, booleans or floats.
///
/// The header (MLT v1, as maplibre-tile-spec's decoders read it): a byte of
/// stream kind (high nibble present / data / offset / length, low nibble the
/// dictionary, offset or length type), a byte of encodings (logical technique
/// 1 in bits 7–5, logical technique 2 in bits 4–2, physical technique in
/// bits 1–0), varints of value count and byte length, then two varints more
/// for RLE (runs, decoded count; not for boolean streams) and Morton (bits,
/// shift) streams.
///
/// Counts are checked before anything is allocated: a varint or a packed
/// word takes at least a byte, a decoded count is charged to the tile's
/// ``MLTBudget`` first, and every arithmetic step wraps rather than traps.
struct MLTStream {
    enum Kind: Equatable {
        case present
        /// The dictionary type: 0 none, 1 single, 2 shared, 3 vertex, 4 Morton, 5 FSST.
        case data(UInt8)
        /// The offset type: 0 vertex, 1 index, 2 string, 3 key.
        case offset(UInt8)
        /// The length type: 0 var-binary, 1 geometries, 2 parts, 3 rings, 4 triangles, 5 symbol, 6 dictionary.
        case length(UInt8)
    }

    enum Logical: Equatable {
        case none, delta, componentwiseDelta, rle(runs: Int, values: Int), deltaRLE(runs: Int, values: Int)
        case morton(bits: Int, shift: UInt32, delta: Bool)
    }

    enum Physical: UInt8 {
        case none = 0, fastPFOR = 1, varint = 2
    }

    let kind: Kind
    let logical: Logical
    let physical: Physical
    /// Values as stored (for RLE: run lengths and values together).
    let storedCount: Int
    let bytes: ProtobufReader

    /// Values once decoded (RLE expanded; Morton codes not yet split into x and y).
    var decodedCount: Int {
        switch logical {
        case .rle(_, let values), .deltaRLE(_, let values): return values
        default: return storedCount
        }
    }

    /// Reads a stream's header and takes its bytes from `reader`. `boolean`
    /// streams (presence, boolean columns) carry no RLE varints.
    init(_ reader: inout ProtobufReader, boolean: Bool = false) throws {
        let kindByte = try reader.byte()
        switch kindByte >> 4 {
        case 0: kind = .present
        case 1 where kindByte & 15 <= 5: kind = .data(kindByte & 15)
        case 2 where kindByte & 15 <= 3: kind = .offset(kindByte & 15)
        case 3 where kindByte & 15 <= 6: kind = .length(kindByte & 15)
        default: throw VectorTileError(.corrupt, "stream type byte \(kindByte) is not one the MLT specification defines")
        }
        let encodings = try reader.byte()
        let first = encodings >> 5, second = (encodings >> 2) & 7
        guard let physical = Physical(rawValue: encodings & 3) else {
            throw VectorTileError(.corrupt, "physical encoding 3 (of stream type byte \(kindByte)) is not one the MLT specification defines")
        }
        self.physical = physical
        storedCount = try Self.count(&reader, "a stream's value count")
        let byteLength = try reader.varint()
        switch (first, second) {
        case (0, 0): logical = .none
        case (1, 0): logical = .delta
        case (2, 0): logical = .componentwiseDelta
        case (1, 3), (3, 0):
            let runs: Int, values: Int
            if boolean {
                (runs, values) = (0, 0)
            } else {
                runs = try Self.count(&reader, "an RLE stream's run count")
                values = try Self.count(&reader, "an RLE stream's decoded count")
            }
            logical = first == 3 ? .rle(runs: runs, values: values) : .deltaRLE(runs: runs, values: values)
        case (4, 0), (4, 1):
            let bits = try reader.varint(), shift = try reader.varint()
            guard bits <= 16, shift <= UInt64(UInt32.max) else {
                throw VectorTileError(.corrupt, "a Morton stream has \(bits) bits per axis (at most 16) and shift \(shift)")
            }
            logical = .morton(bits: Int(bits), shift: UInt32(shift), delta: second == 1)
        case (4, 3):
            throw VectorTileError(.unsupported, "Morton codes with RLE (logical encodings 4 and 3) are not supported")
        case (5, _):
            throw VectorTileError(.unsupported, "pseudodecimal float encoding (logical encoding 5) is not supported")
        default:
            throw VectorTileError(.corrupt, "logical encodings \(first) then \(second) are not a combination the MLT specification defines")
        }
        bytes = try reader.bytes(byteLength)
    }

    /// A count read as a varint, at most `Int32.max` (the specification's bound on features).
    private static func count(_ reader: inout ProtobufReader, _ what: String) throws -> Int {
        let value = try reader.varint()
        guard value <= UInt64(Int32.max) else { throw VectorTileError(.corrupt, "\(what) is \(value), over 2³¹ − 1") }
        return Int(value)
    }

    // MARK: Integers

    /// The stream's integers, decoded (zig-zag applied where `signed`, and
    /// always to deltas), each within 32 bits unless `wide`. Morton streams
    /// answer x, y pairs (twice their count).
    func integers(signed: Bool, wide: Bool = false, budget: inout MLTBudget) throws -> [Int64] {
        let stored = try physicalValues(wide: wide, budget: &budget)
        switch logical {
        case .none:
            return signed ? stored.map { Self.zigZag($0, wide: wide) } : stored.map { Int64(bitPattern: $0) }
        case .delta:
            return Self.deltas(stored, wide: wide)
        case .componentwiseDelta:
            guard stored.count % 2 == 0 else { throw VectorTileError(.corrupt, "a componentwise delta stream has \(stored.count) values, not pairs") }
            var result = [Int64](repeating: 0, count: stored.count)
            var x: Int64 = 0, y: Int64 = 0
            for i in stride(from: 0, to: stored.count, by: 2) {
                x = Self.narrow(x &+ Self.zigZag(stored[i], wide: wide), wide: wide)
                y = Self.narrow(y &+ Self.zigZag(stored[i + 1], wide: wide), wide: wide)
                result[i] = x
                result[i + 1] = y
            }
            return result
        case .rle(let runs, let values):
            let expanded = try Self.runLengths(stored, runs: runs, values: values, budget: &budget)
            return signed ? expanded.map { Self.zigZag($0, wide: wide) } : expanded.map { Int64(bitPattern: $0) }
        case .deltaRLE(let runs, let values):
            return Self.deltas(try Self.runLengths(stored, runs: runs, values: values, budget: &budget), wide: wide)
        case .morton(let bits, let shift, let delta):
            try budget.charge(stored.count, "Morton-coded vertices")
            var result = [Int64](repeating: 0, count: stored.count * 2)
            var code: UInt32 = 0
            for (i, value) in stored.enumerated() {
                code = delta ? code &+ UInt32(truncatingIfNeeded: value) : UInt32(truncatingIfNeeded: value)
                var x: UInt32 = 0, y: UInt32 = 0
                for bit in 0..<bits {
                    x |= ((code >> (2 * bit)) & 1) << bit
                    y |= ((code >> (2 * bit + 1)) & 1) << bit
                }
                result[2 * i] = Int64(Int32(bitPattern: x &- shift))
                result[2 * i + 1] = Int64(Int32(bitPattern: y &- shift))
            }
            return result
        }
    }

    /// The values as stored: varints, or little-endian words of 4 (8 when
    /// `wide`) bytes. Each value takes at least one byte, so the count is
    /// checked against the bytes before the array is made.
    private func physicalValues(wide: Bool, budget: inout MLTBudget) throws -> [UInt64] {
        var reader = bytes
        switch physical {
        case .fastPFOR:
            throw VectorTileError(.unsupported, "FastPFOR integer compression (physical encoding 1) is not supported")
        case .varint:
            guard storedCount <= reader.remaining else {
                throw VectorTileError(.corrupt, "a stream holds \(storedCount) varints in \(reader.remaining) bytes")
            }
            try budget.charge(storedCount, "stream values")
            var values = [UInt64]()
            values.reserveCapacity(storedCount)
            for _ in 0..<storedCount {
                let value = try reader.varint()
                guard wide || value <= UInt64(UInt32.max) else {
                    throw VectorTileError(.corrupt, "a 32-bit stream holds the value \(value)")
                }
                values.append(value)
            }
            return values
        case .none:
            let width = wide ? 8 : 4
            // storedCount is at most 2³¹ − 1, so the product cannot overflow.
            guard storedCount * width <= reader.remaining else {
                throw VectorTileError(.corrupt, "a stream holds \(storedCount) words of \(width) bytes in \(reader.remaining) bytes")
            }
            try budget.charge(storedCount, "stream values")
            var values = [UInt64]()
            values.reserveCapacity(storedCount)
            for _ in 0..<storedCount {
                values.append(wide ? try reader.fixed64() : UInt64(try reader.fixed32()))
            }
            return values
        }
    }

    /// Run lengths then values (`runs` of each) expanded to `values` values.
    private static func runLengths(_ stored: [UInt64], runs: Int, values: Int, budget: inout MLTBudget) throws -> [UInt64] {
        guard stored.count == runs * 2 else {
            throw VectorTileError(.corrupt, "an RLE stream of \(runs) runs holds \(stored.count) values, not \(runs * 2)")
        }
        var total: UInt64 = 0
        for run in stored[0..<runs] {
            total = total &+ min(run, UInt64(Int32.max))
        }
        guard total == UInt64(values) else {
            throw VectorTileError(.corrupt, "an RLE stream's runs add up to \(total) values, not the \(values) its header says")
        }
        try budget.charge(values, "run-length decoded values")
        var result = [UInt64]()
        result.reserveCapacity(values)
        for i in 0..<runs {
            result.append(contentsOf: repeatElement(stored[runs + i], count: Int(min(stored[i], UInt64(Int32.max)))))
        }
        return result
    }

    private static func deltas(_ stored: [UInt64], wide: Bool) -> [Int64] {
        var sum: Int64 = 0
        return stored.map { value in
            sum = narrow(sum &+ zigZag(value, wide: wide), wide: wide)
            return sum
        }
    }

    @inline(__always)
    private static func zigZag(_ value: UInt64, wide: Bool) -> Int64 {
        wide ? ProtobufReader.zigZag(value) : Int64(ProtobufReader.zigZag32(UInt32(truncatingIfNeeded: value)))
    }

    /// A 32-bit stream's sum wraps at 32 bits, as its decoders' `i32` does.
    @inline(__always)
    private static func narrow(_ value: Int64, wide: Bool) -> Int64 {
        wide ? value : Int64(Int32(truncatingIfNeeded: value))
    }

    // MARK: Booleans and floats

    /// A presence or boolean stream's `storedCount` bits (least significant
    /// first): ORC byte-RLE unless stored plain.
    func booleans(budget: inout MLTBudget) throws -> [Bool] {
        guard physical != .varint else { throw VectorTileError(.unsupported, "a varint-encoded boolean stream is not supported") }
        let byteCount = (storedCount + 7) / 8
        var reader = bytes
        var packed = [UInt8]()
        if logical == .none && physical == .none {
            guard reader.remaining >= byteCount else {
                throw VectorTileError(.corrupt, "a boolean stream of \(storedCount) bits holds \(reader.remaining) bytes")
            }
            packed = Array(reader.restBytes.prefix(byteCount))
        } else {
            // ORC byte RLE: a control byte below 128 repeats the next byte control + 3
            // times; one from 128 up is followed by 256 − control literal bytes.
            packed.reserveCapacity(byteCount)
            while packed.count < byteCount {
                let control = try reader.byte()
                if control < 128 {
                    let value = try reader.byte()
                    packed.append(contentsOf: repeatElement(value, count: min(Int(control) + 3, byteCount - packed.count)))
                } else {
                    for _ in 0..<min(256 - Int(control), byteCount - packed.count) { packed.append(try reader.byte()) }
                }
            }
        }
        try budget.charge(storedCount, "boolean values")
        return (0..<storedCount).map { packed[$0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }

    /// The stream's little-endian IEEE floats (`Float` widened), or doubles
    /// when `double`. A double column whose bytes are exactly four per value
    /// holds 32-bit floats (as an encoder wrote the suite's `counties` tile):
    /// its own byte length says so, and it is read so.
    func floats(double: Bool, budget: inout MLTBudget) throws -> [Double] {
        guard physical == .none, logical == .none else {
            throw VectorTileError(.unsupported, "a float stream encoded other than plain (logical \(logical), physical \(physical)) is not supported")
        }
        var reader = bytes
        let double = double && !(storedCount > 0 && reader.remaining == storedCount * 4)
        let width = double ? 8 : 4
        guard storedCount <= reader.remaining / width else {
            throw VectorTileError(.corrupt, "a float stream holds \(storedCount) values in \(reader.remaining) bytes")
        }
        try budget.charge(storedCount, "float values")
        return try (0..<storedCount).map { _ in
            double ? Double(bitPattern: try reader.fixed64()) : Double(Float(bitPattern: try reader.fixed32()))
        }
    }

    /// The stream's bytes, for strings and FSST symbol tables.
    var rawBytes: UnsafeBufferPointer<UInt8> { bytes.restBytes }
}
