import Foundation

/// The embedded basemap bytes (in the generated `BasemapData+110m.swift` and
/// `BasemapData+50m.swift`, made by `Scripts/make_basemap.py`) and their decoder.
/// The format is described in that script.
enum BasemapData {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(base64: String, detail: Basemap.Detail) throws -> Basemap {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw FormatError(description: "embedded basemap (\(detail)) is not valid base64")
        }
        return try decode(Array(data), detail: detail)
    }

    static func decode(_ bytes: [UInt8], detail: Basemap.Detail) throws -> Basemap {
        var reader = Reader(bytes: bytes)
        guard try reader.bytes(4) == Array("USKB".utf8), try reader.byte() == 1 else {
            throw FormatError(description: "embedded basemap (\(detail)) has an unknown header")
        }
        var countries: [Basemap.Country] = []
        for _ in 0..<(try reader.count(minimumBytesEach: 6)) {
            let colorClass = Int(try reader.byte())
            let code = String(decoding: try reader.bytes(Int(try reader.byte())), as: UTF8.self)
            var polygons: [[[GeoCoordinate]]] = []
            for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
                var rings: [[GeoCoordinate]] = []
                for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
                    rings.append(try reader.points())
                }
                polygons.append(rings)
            }
            let outerRings = polygons.compactMap(\.first).joined()
            countries.append(Basemap.Country(code: code, colorClass: colorClass, polygons: polygons, bounds: GeoBounds(outerRings)))
        }
        var coastlines: [[GeoCoordinate]] = []
        for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
            coastlines.append(try reader.points())
        }
        guard reader.isAtEnd else { throw FormatError(description: "embedded basemap (\(detail)) has trailing bytes") }
        return Basemap(detail: detail, countries: countries, coastlines: coastlines)
    }

    /// A bounds-checked cursor; counts are checked against the bytes left, so a
    /// damaged length cannot make the decoder allocate without bound.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw FormatError(description: "basemap data ends early") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func bytes(_ count: Int) throws -> [UInt8] {
            guard count <= bytes.count - offset else { throw FormatError(description: "basemap data ends early") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func count(minimumBytesEach: Int) throws -> Int {
            let raw = try bytes(4)
            let value = Int(raw[0]) | Int(raw[1]) << 8 | Int(raw[2]) << 16 | Int(raw[3]) << 24
            guard value <= (bytes.count - offset) / minimumBytesEach else {
                throw FormatError(description: "basemap count \(value) exceeds the data left")
            }
            return value
        }

        mutating func varint() throws -> Int64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 64 else { throw FormatError(description: "basemap varint too long") }
                result |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { break }
                shift += 7
            }
            return Int64(bitPattern: (result >> 1) ^ (0 &- (result & 1)))  // zigzag
        }

        mutating func points() throws -> [GeoCoordinate] {
            let count = try self.count(minimumBytesEach: 2)
            var points: [GeoCoordinate] = []
            points.reserveCapacity(count)
            var x: Int64 = 0, y: Int64 = 0
            for _ in 0..<count {
                x &+= try varint()
                y &+= try varint()
                points.append(GeoCoordinate(latitude: Double(y) / 1e4, longitude: Double(x) / 1e4))
            }
            return points
        }
    }
}
