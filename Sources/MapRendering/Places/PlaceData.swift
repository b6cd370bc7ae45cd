/// The embedded places (in the generated `PlaceData+GeoNames.swift`, made by
/// `Scripts/make_places.py`) and their decoder. The format is described in that script.
enum PlaceData {
    static func decode(base64: String) throws -> [Place] {
        let bytes = try BasemapData.bytes(base64: base64, compressed: true, name: "places")
        var reader = BasemapData.Reader(bytes: bytes)
        guard try reader.bytes(4) == Array("USKP".utf8), try reader.byte() == 1 else {
            throw BasemapData.FormatError(description: "embedded places have an unknown header")
        }
        var places: [Place] = []
        var latitude: Int64 = 0, longitude: Int64 = 0
        for _ in 0..<(try reader.count(minimumBytesEach: 5)) {
            let flags = try reader.byte()
            let population = try reader.unsignedVarint()
            latitude &+= try reader.varint()
            longitude &+= try reader.varint()
            let name = String(decoding: try reader.bytes(Int(try reader.byte())), as: UTF8.self)
            guard abs(latitude) <= 90_000, abs(longitude) <= 180_000, population < 1 << 40 else {
                throw BasemapData.FormatError(description: "embedded place '\(name)' is out of range")
            }
            places.append(Place(name: name, coordinate: GeoCoordinate(latitude: Double(latitude) / 1e3, longitude: Double(longitude) / 1e3),
                                population: Int(population), isCapital: flags & 1 != 0))
        }
        guard reader.isAtEnd else { throw BasemapData.FormatError(description: "embedded places have trailing bytes") }
        return places.sorted { $0.outranks($1) }
    }
}
