import Foundation
import ImageCodecs

/// The embedded basemap bytes (in the generated `BasemapData+110m.swift` and
/// `BasemapData+50m.swift`, made by `Scripts/make_basemap.py`) and their decoder.
/// The format is described in that script.
enum BasemapData {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    /// The basemap at `detail`: countries and coastlines from `base64`, lakes and
    /// region borders from the zlib-compressed `layers` (`BasemapLayersData`).
    static func decode(base64: String, layers: String, detail: Basemap.Detail) throws -> Basemap {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw FormatError(description: "embedded basemap (\(detail)) is not valid base64")
        }
        let (lakes, regionBorders, rivers) = try BasemapLayersData.decode(base64: layers, detail: detail)
        let (countries, coastlines) = try decode(Array(data), detail: detail)
        return Basemap(detail: detail, countries: countries, coastlines: coastlines, lakes: lakes, regionBorders: regionBorders,
                       rivers: rivers)
    }

    static func decode(_ bytes: [UInt8], detail: Basemap.Detail) throws -> (countries: [Basemap.Country], coastlines: [[GeoCoordinate]]) {
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
        return (countries, coastlines)
    }

    /// The base64 text of an embedded resource, inflated (zlib) when `compressed`;
    /// at most `limit` bytes, so damaged data cannot inflate without bound.
    static func bytes(base64: String, compressed: Bool, limit: Int = 16 << 20, name: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw FormatError(description: "embedded \(name) is not valid base64")
        }
        guard compressed else { return Array(data) }
        do {
            return try Inflater.zlibDecompress(Array(data), limit: limit)
        } catch {
            throw FormatError(description: "embedded \(name) does not inflate: \(error)")
        }
    }

    /// A bounds-checked cursor; counts are checked against the bytes left, so a
    /// damaged length cannot make the decoder allocate without bound. Shared by
    /// the embedded layers' and places' decoders.
    struct Reader {
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

        /// A zigzag-encoded signed varint.
        mutating func varint() throws -> Int64 {
            let result = try unsignedVarint()
            return Int64(bitPattern: (result >> 1) ^ (0 &- (result & 1)))
        }

        /// A LEB128 varint.
        mutating func unsignedVarint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 64 else { throw FormatError(description: "basemap varint too long") }
                result |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { break }
                shift += 7
            }
            return result
        }

        /// A point list in `units` per degree (the basemap's 1e4 unless a format says otherwise).
        mutating func points(unitsPerDegree units: Double = 1e4) throws -> [GeoCoordinate] {
            let count = try self.count(minimumBytesEach: 2)
            var points: [GeoCoordinate] = []
            points.reserveCapacity(count)
            var x: Int64 = 0, y: Int64 = 0
            for _ in 0..<count {
                x &+= try varint()
                y &+= try varint()
                points.append(GeoCoordinate(latitude: Double(y) / units, longitude: Double(x) / units))
            }
            return points
        }
    }
}
