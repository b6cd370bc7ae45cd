/// The embedded water and region layers (in the generated `BasemapLayersData+110m.swift`
/// and `+50m.swift`, made by `Scripts/make_water_and_regions.py` from Natural Earth
/// 1:10m lakes and admin-1 boundary lines and 1:50m rivers) and their decoder. The
/// format is described in that script.
enum BasemapLayersData {
    static func decode(base64: String, detail: Basemap.Detail)
        throws -> (lakes: [Basemap.Lake], regionBorders: [[GeoCoordinate]], rivers: [[GeoCoordinate]]) {
        let bytes = try BasemapData.bytes(base64: base64, compressed: true, name: "basemap layers (\(detail))")
        var reader = BasemapData.Reader(bytes: bytes)
        guard try reader.bytes(4) == Array("USKL".utf8), try reader.byte() == 2 else {
            throw BasemapData.FormatError(description: "embedded basemap layers (\(detail)) have an unknown header")
        }
        var lakes: [Basemap.Lake] = []
        for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
            var rings: [[GeoCoordinate]] = []
            for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
                rings.append(try reader.points(unitsPerDegree: 1e3))
            }
            lakes.append(Basemap.Lake(rings: rings, bounds: rings.first.flatMap { GeoBounds($0) }))
        }
        var borders: [[GeoCoordinate]] = []
        for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
            borders.append(try reader.points(unitsPerDegree: 1e3))
        }
        var rivers: [[GeoCoordinate]] = []
        for _ in 0..<(try reader.count(minimumBytesEach: 4)) {
            rivers.append(try reader.points(unitsPerDegree: 1e3))
        }
        guard reader.isAtEnd else { throw BasemapData.FormatError(description: "embedded basemap layers (\(detail)) have trailing bytes") }
        return (lakes, borders, rivers)
    }
}
