import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MapRendering
import Raster
import URLSchemeKit

/// Issue "MapURLProtocol": a 600×400 @2x snapshot over Europe at zoom 3.
/// The drawing alone against pycairo filling and stroking the same projected
/// geometry; whole renders through URLSession, cold and cached (against nginx
/// serving the same PNG); 100 distinct snapshots with 2 in flight.
struct MapBenchmarks: BenchmarkSuite {
    let name = "map"
    let summary = "map:// snapshots: drawing vs pycairo, cold and cached loads, throughput"

    static let europe = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 50, longitude: 15), zoom: 3), width: 600, height: 400, scale: 2)

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        let options = Self.europe
        let viewport = MapViewport(options: options)
        let palette = options.style.palette
        let geometry = try MapGeometry(viewport: viewport)
        let project = try Stopwatch.median(iterations: context.iterations) { _ = try MapGeometry(viewport: viewport) }
        let draw = try Stopwatch.median(iterations: context.iterations) {
            var canvas = try Canvas(width: viewport.pixelWidth, height: viewport.pixelHeight, background: palette.water)
            try geometry.draw(on: &canvas, palette: palette, scale: options.scale)
        }
        let file = context.workDirectory.appendingPathComponent("europe-geometry.json")
        try JSONEncoder().encode(GeometryExport(geometry, options: options)).write(to: file)
        let cairo = try context.runReference(script: "map.py", arguments: [file.path])["pycairo"]
        rows.append(BenchmarkRow(name: "map drawing alone, 1200×800 px (Europe, z3)", ours: draw, reference: cairo?.seconds,
                                 referenceName: cairo?.label ?? "pycairo (not installed)", goal: 0.5,
                                 detail: String(format: "projecting the basemap: %.1f ms more", project * 1000)))

        // Whole snapshots through URLSession: cold (no cache) and cached.
        let url = try MapURL(options: options).url
        let cold = URLSessionConfiguration.ephemeral
        cold.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: nil, httpCache: nil))
        let coldSession = URLSession(configuration: cold)
        defer { coldSession.finishTasksAndInvalidate() }
        var png = Data()
        let coldSeconds = try Stopwatch.median(iterations: context.iterations) { png = try Self.load(url, coldSession) }
        rows.append(BenchmarkRow(name: "map snapshot cold: render + PNG via URLSession", ours: coldSeconds, reference: nil,
                                 referenceName: "–", goal: nil, detail: "\(png.count) B PNG"))

        rows.append(try CacheBenchmarks.cachedAgainstNginx(url, name: "map snapshot", context: context))

        // 100 distinct snapshots, 2 in flight, cache off: throughput and peak memory.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)  // reset VmHWM
        let urls = try (0..<100).map { (i: Int) -> URL in
            let center = GeoCoordinate(latitude: 30 + Double(i % 10) * 3, longitude: -10 + Double(i / 10) * 6)
            let zoom: Double = 3 + Double(i % 4) * 0.5
            return try MapURL(options: MapSnapshotOptions(camera: .zoom(center: center, zoom: zoom), width: 600, height: 400, scale: 2)).url
        }
        let start = Stopwatch.now()
        let slots = DispatchSemaphore(value: 2)
        let group = DispatchGroup()
        for url in urls {
            slots.wait()
            group.enter()
            coldSession.dataTask(with: url) { _, _, _ in
                slots.signal()
                group.leave()
            }.resume()
        }
        group.wait()
        let elapsed = Stopwatch.now() - start
        rows.append(BenchmarkRow(name: "100 distinct snapshots, 2 in flight (per snapshot)", ours: elapsed / 100, reference: nil,
                                 referenceName: "–", goal: nil,
                                 detail: String(format: "%.1f snapshots/s; peak RSS %@", 100 / elapsed, Self.peakResidentMemory())))
        return rows
    }

    static func load(_ url: URL, _ session: URLSession) throws -> Data {
        let result = Mutex<Result<Data, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: url) { data, _, error in
            result.withLock { $0 = data.map { .success($0) } ?? .failure(error ?? BenchmarkError("no data")) }
            done.signal()
        }.resume()
        done.wait()
        return try result.withLock { $0 }?.get() ?? Data()
    }

    /// VmHWM from /proc/self/status.
    static func peakResidentMemory() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .dropFirst(6).trimmingCharacters(in: .whitespaces) ?? "unknown"
    }
}

/// The projected basemap as flat coordinate lists, for the pycairo side.
struct GeometryExport: Encodable {
    var width: Int
    var height: Int
    var scale: Double
    var water: [UInt8]
    var land: [[Double]]
    var landColor: [UInt8]
    var classes: [[[Double]]]
    var classColors: [[UInt8]]
    var borders: [[Double]]
    var borderColor: [UInt8]
    var coastlines: [[Double]]
    var coastColor: [UInt8]
    var lakes: [[Double]]
    var regionBorders: [[Double]]
    var regionBorderColor: [UInt8]

    init(_ geometry: MapGeometry, options: MapSnapshotOptions) {
        let palette = options.style.palette
        func flat(_ path: Path) -> [[Double]] {
            // The geometry holds straight segments only, so flattening just lists them.
            ((try? path.flattened()) ?? []).map { $0.points.flatMap { [$0.x, $0.y] } }
        }
        func rgba(_ c: RGBA) -> [UInt8] { [c.r, c.g, c.b, c.a] }
        width = options.pixelWidth
        height = options.pixelHeight
        scale = options.scale
        water = rgba(palette.water)
        land = flat(geometry.land)
        landColor = rgba(palette.land(colorClass: 1))
        classes = geometry.countriesByClass.map { flat($0.path) }
        classColors = geometry.countriesByClass.map { rgba(palette.land(colorClass: $0.colorClass)) }
        borders = flat(geometry.borders)
        borderColor = rgba(palette.border)
        coastlines = flat(geometry.coastlines)
        coastColor = rgba(palette.coastline)
        lakes = flat(geometry.lakes)
        regionBorders = flat(geometry.regionBorders)
        regionBorderColor = rgba(palette.regionBorder)
    }
}
