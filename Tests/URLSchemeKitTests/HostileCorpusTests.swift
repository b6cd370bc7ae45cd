import XCTest
import ImageCodecs
@testable import URLSchemeKit

/// The hostile corpus (`Hostile/`, made by `make_hostile.py` and
/// `make_hostile_tiles.py`, and the GIF and WebP files too large to keep,
/// made at run time by `HostileAnimations`): each file is refused by
/// `urlscheme add`, each URL, loaded by `urlscheme get` through a real
/// URLSession in a child process, ends with the expected outcome, and each
/// vector source of `tiles.tsv` (`--tiles`: a PMTiles archive or style that
/// would cost much) fails with the expected error, and each style of
/// `styles.tsv`, drawn by `urlscheme render`, ends as it says. Built with `-c release`
/// (as `.ci/run` runs it) every load must
/// also take under 2 s and peak under 300 MB of resident memory, measured
/// as the child's own VmHWM (see ChildRun). A debug build (5-100× slower) checks only the
/// refusals, whose point is to be cheap, and skips the loads that succeed.
final class HostileCorpusTests: XCTestCase {
    private static let hostile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")
    private static let secondsPerLoad = 2.0
    private static let bytesPerLoad = 300 << 20
    #if DEBUG
    private static let isReleaseBuild = false
    #else
    private static let isReleaseBuild = true
    #endif

    private func table(_ name: String) throws -> [[String]] {
        try String(contentsOf: Self.hostile.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    func testEveryHostileFileAndURLFailsFastWithTheExpectedOutcome() throws {
        let binary = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        let files = Self.hostile.appendingPathComponent("files")
        let measured = Self.isReleaseBuild
        let generated = try makeTemporaryDirectory("generated")
        let generatedNames = try HostileAnimations.files().map { name, data in
            try data.write(to: generated.appendingPathComponent(name))
            return name
        }
        func path(_ name: String) -> URL {
            let kept = files.appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: kept.path) ? kept : generated.appendingPathComponent(name)
        }

        for row in try table("refused.tsv") {
            let run = try ChildRun(binary, ["add", path(row[0]).path, "--assets", directory.path])
            XCTAssertNotEqual(run.status, 0, row[0])
            XCTAssertTrue(run.stderr.contains(row[1]), "\(row[0]): \(run.stderr)")
            print("hostile add \(row[0]): \(run.summary)")
            if measured { check(run, row[0]) }
        }

        // Plant every file as a store that checked only headers would have taken it.
        let planter = try FileAssetStore(directory: directory) { data in
            (try? ImageDecoder.readInfo(data)) ?? ImageInfo(format: ImageFormat(sniffing: data.prefix(ImageFormat.sniffedByteCount)) ?? .png, width: 1, height: 1, hasAlpha: false)
        }
        var ids: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: files.path) + generatedNames {
            ids[name] = try planter.add(Data(contentsOf: path(name)))
        }

        let output = directory.appendingPathComponent("out").path
        for row in try table("cases.tsv") {
            let (name, expected, text) = (row[0], row[2], row[3])
            if expected == "200" && !measured { continue }
            var url = row[1]
            for (file, id) in ids { url = url.replacingOccurrences(of: "{\(file)}", with: id) }
            let run = try ChildRun(binary, ["get", url, "--no-cache", "--assets", directory.path, "-o", output])
            print("hostile get \(name): \(run.summary)")
            if expected == "200" {
                XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("200 "), "\(name): \(run.stderr)")
            } else {
                XCTAssertNotEqual(run.status, 0, name)
                XCTAssertEqual(expected, "error", name)
                XCTAssertTrue(run.stderr.contains(text), "\(name): \(run.stderr)")
            }
            if measured { check(run, name) }
        }
    }

    /// Every row of `tiles.tsv` fails naming what is wrong, even in a debug
    /// build (each is refused before the costly work); in release, within the
    /// time and memory bounds.
    func testEveryHostileVectorSourceFailsFastNamingTheProblem() throws {
        let binary = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        // Styles too large to store, written here: a million (empty) layers (3 MB);
        // a road layer 1e9 wide dashed by 100,000 lengths (700 KB); a road
        // width coalescing 285,000 `["id"]` terms, evaluated per feature (2 MB);
        // a circle 1e6 pixels wide at every road vertex; 300 layers of water raised 1e7 metres.
        func roads(_ paint: String) -> String {
            #"{"version":8,"sources":{"openmaptiles":{"type":"vector"}},"layers":[{"id":"background","type":"background"},"#
                + #"{"id":"roads","type":"line","source":"openmaptiles","source-layer":"transportation","paint":{"# + paint + "}}]}"
        }
        let styles = [
            "million-layers.json": "{\"version\":8,\"layers\":[" + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}",
            "dash-bomb.json": roads(#""line-width":1e9,"line-dasharray":["# + Array(repeating: "0.0001", count: 100_000).joined(separator: ",") + "]"),
            "id-terms.json": roads(#""line-width":["coalesce""# + String(repeating: #",["id"]"#, count: 285_000) + ",1]"),
            "circle-bomb.json": roads(#""circle-radius":1e6,"circle-blur":1"#).replacingOccurrences(of: #""type":"line""#, with: #""type":"circle""#),
            "extrusion-bomb.json": #"{"version":8,"sources":{"openmaptiles":{"type":"vector"}},"layers":["#
                + (0..<300).map { #"{"id":"water\#($0)","type":"fill-extrusion","source":"openmaptiles","source-layer":"water","paint":{"fill-extrusion-height":1e7}}"# }
                    .joined(separator: ",") + "]}",
        ]
        for (name, text) in styles { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        let helsinki = Self.hostile.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles")
        let tiles = Self.hostile.appendingPathComponent("tiles")
        for row in try table("tiles.tsv") {
            let (name, url, text) = (row[0], row[2], row[3])
            var argument = row[1].replacingOccurrences(of: "{helsinki}", with: helsinki.path)
            for name in styles.keys {
                argument = argument.replacingOccurrences(of: "{\(name)}", with: directory.appendingPathComponent(name).path)
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: tiles.path) {
                argument = argument.replacingOccurrences(of: "{\(file)}", with: tiles.appendingPathComponent(file).path)
            }
            let run = try ChildRun(binary, ["get", url, "--no-cache", "--tiles", argument, "-o", directory.appendingPathComponent("out").path])
            print("hostile tiles \(name): \(run.summary)")
            XCTAssertEqual(run.status, 1, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("urlscheme: ") && run.stderr.contains(text), "\(name): \(run.stderr)")
            if Self.isReleaseBuild { check(run, name) }
        }
    }

    /// Every row of `styles.tsv`, a whole style drawn by `urlscheme render`,
    /// ends as the row says; in a release build within the budget.
    func testEveryHostileStyleDocumentEndsAsExpected() throws {
        let binary = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        // GeoJSON written here: 52,000 points spread over the world (4 MiB, the
        // byte limit), and a million (71 MB), each clustered to the deepest zoom.
        var random: UInt64 = 1
        func points(_ count: Int) -> String {
            "{\"type\":\"FeatureCollection\",\"features\":[" + (0..<count).map { _ in
                random = random &* 6_364_136_223_846_793_005 &+ 1
                let longitude = Double(random >> 40) / Double(1 << 24) * 360 - 180, latitude = Double(random >> 16 & 0xFF_FFFF) / Double(1 << 24) * 170 - 85
                return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(String(format: "%.3f,%.3f", longitude, latitude))]}}"#
            }.joined(separator: ",") + "]}"
        }
        func style(_ data: String) -> String {
            #"{"version":8,"sources":{"p":{"type":"geojson","data":"\#(data)","maxzoom":24,"cluster":true,"clusterRadius":512,"#
                + #""clusterProperties":{"sum":["+",1]}}},"layers":[{"id":"c","type":"circle","source":"p"}]}"#
        }
        var files = [
            "cluster-4mib.geojson": points(52_000), "cluster-4mib.json": style("cluster-4mib.geojson"),
            "cluster-million.geojson": #"{"type":"FeatureCollection","features":["#
                + String(repeating: #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,2.5]}},"#, count: 1_000_000).dropLast() + "]}",
            "cluster-million.json": style("cluster-million.geojson"),
            // An 86,000-character label for shaping and bidi: embeddings and isolates far past
            // the depth limit, never closed, then Arabic with lam-alef, brackets and digits.
            "rtl-label.json": #"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}}},"#
                + #""layers":[{"id":"t","type":"symbol","source":"p","layout":{"text-allow-overlap":true,"text-field":""#
                + String(repeating: "\u{202B}", count: 20_000) + String(repeating: "\u{2068}", count: 20_000)
                + String(repeating: "\u{202E}", count: 5_000) + String(repeating: "\u{0628}\u{0644}\u{0627}[\u{06F3}]", count: 6_000)
                + String(repeating: "\u{2069}", count: 5_000) + #""}}]}"#,
            // A 90,000-character label with 18,000 break opportunities (MapLibre weighs
            // every earlier break at each: the search must not cost their square).
            "breaks-label.json": #"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}}},"#
                + #""layers":[{"id":"t","type":"symbol","source":"p","layout":{"text-allow-overlap":true,"text-field":""#
                + String(repeating: "abc (", count: 18_000) + #""}}]}"#,
        ]
        // MapLibre Tiles (`encoding: "mlt"`) of `Hostile/tiles/mlt-*`, drawn at zoom 0.
        func mltStyle(_ folder: String) -> String {
            let template = Self.hostile.appendingPathComponent("tiles/\(folder)").path + "/{z}/{x}/{y}.mlt"
            return #"{"version":8,"sources":{"m":{"type":"vector","encoding":"mlt","tiles":["file://\#(template)"]}},"#
                + #""layers":[{"id":"l","type":"line","source":"m","source-layer":"a"}]}"#
        }
        files["mlt-feature-bomb.json"] = mltStyle("mlt-feature-bomb")
        files["mlt-values-bomb.json"] = mltStyle("mlt-values-bomb")
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        for row in try table("styles.tsv") {
            let (name, expected, text) = (row[0], row[2], row[3])
            // As the URL rows: a debug build checks the refusals only.
            guard Self.isReleaseBuild || expected != "200" else { continue }
            let file = row[1].trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
            let run = try ChildRun(binary, ["render", directory.appendingPathComponent(file).path, "--size", "256x256",
                                            "-o", directory.appendingPathComponent("out.png").path])
            print("hostile style \(name): \(run.summary)")
            if expected == "200" {
                XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            } else {
                XCTAssertEqual(run.status, 1, "\(name): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains(text), "\(name): \(run.stderr)")
            }
            if Self.isReleaseBuild { check(run, name) }
        }
    }

    private func check(_ run: ChildRun, _ name: String) {
        XCTAssertLessThan(run.seconds, Self.secondsPerLoad, "\(name) took \(run.seconds) s")
        XCTAssertLessThan(run.peakResidentBytes, Self.bytesPerLoad, "\(name) peaked at \(run.peakResidentBytes >> 20) MB")
    }
}
