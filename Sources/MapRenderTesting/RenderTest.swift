import Foundation
import MapRendering

/// One test of MapLibre's render-test suite: a folder under
/// `integration/render-tests/` holding `style.json` (whose `metadata.test`
/// says how to draw it) and `expected.png`, what MapLibre draws.
struct RenderTest: Sendable {
    /// `group/test` (deeper folders joined by `/`), as MapLibre names it.
    var name: String
    /// The test's folder.
    var folder: URL
    /// The style document's bytes.
    var style: Data
    /// Image width in points (`metadata.test.width`, 512 by default).
    var width: Int
    /// Image height in points (`metadata.test.height`, 512 by default).
    var height: Int
    /// Pixels per point (`metadata.test.pixelRatio`, 1 by default).
    var pixelRatio: Double
    /// The fraction of pixels that may differ (`metadata.test.allowed`, 0.00015 by default).
    var allowed: Double
    /// Why the test is not a static snapshot (an operation other than `wait`,
    /// a query, a debug overlay, a projection other than Mercator), or nil
    /// when it is one: only static snapshots are run.
    var notStatic: String?
    /// The `type`s of the style's layers.
    var layerTypes: Set<String>
    /// The harness's axonometric projection mode (`axonometric`, `skew`: Native's
    /// `ProjectionMode`), or nil for MapLibre's perspective camera.
    var axonometric: AxonometricProjection?
    /// The canvas MapLibre's harness adds to the page for a `canvas` source
    /// (`metadata.test.addFakeCanvas`): its element id and the picture drawn
    /// on it, a path under `integration/`.
    var fakeCanvas: (id: String, image: String)?
    /// MapLibre's map option `crossSourceCollisions` (`metadata.test.crossSourceCollisions`,
    /// true by default): false gives each source's symbols a collision index of their own.
    var crossSourceCollisions: Bool

    /// The group: the first folder of ``name`` (`line-width` of `line-width/literal`).
    var group: String { String(name.prefix { $0 != "/" }) }

    /// The expected image.
    var expectedImage: URL { folder.appendingPathComponent("expected.png") }

    /// Every expected image: `expected.png` and its platform variants
    /// (`expected-half-float.png`, …), of which MapLibre's runner takes the nearest.
    var expectedImages: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The test in `folder`, named `name`, read from its `style.json`.
    init(name: String, folder: URL) throws {
        self.name = name
        self.folder = folder
        style = try Data(contentsOf: folder.appendingPathComponent("style.json"))
        var document = try JSONSerialization.jsonObject(with: style) as? [String: Any] ?? [:]
        let test = (document["metadata"] as? [String: Any])?["test"] as? [String: Any] ?? [:]
        if let replacements = test["source-replace"] as? [[String: Any]], !replacements.isEmpty {
            Self.replaceSources(replacements, in: &document)
            style = try JSONSerialization.data(withJSONObject: document)
        }
        width = (test["width"] as? NSNumber)?.intValue ?? 512
        height = (test["height"] as? NSNumber)?.intValue ?? 512
        pixelRatio = (test["pixelRatio"] as? NSNumber)?.doubleValue ?? 1
        allowed = (test["allowed"] as? NSNumber)?.doubleValue ?? 0.00015
        notStatic = Self.whyNotStatic(test: test, document: document)
        if let canvas = test["addFakeCanvas"] as? [String: Any], let id = canvas["id"] as? String, let image = canvas["image"] as? String {
            fakeCanvas = (id, image)
        }
        crossSourceCollisions = (test["crossSourceCollisions"] as? Bool) ?? true
        layerTypes = Set((document["layers"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String })
        if (test["axonometric"] as? Bool) == true {
            let skew = (test["skew"] as? [NSNumber])?.map(\.doubleValue) ?? []
            axonometric = skew.count == 2 ? AxonometricProjection(xSkew: skew[0], ySkew: skew[1]) : AxonometricProjection()
        }
    }

    /// MapLibre's `source-replace` (`[{"replace": A, "with": B}]`): the
    /// layers drawing from source A draw from B instead (the same tiles
    /// encoded otherwise, as the MapLibre Tiles tests use it).
    private static func replaceSources(_ replacements: [[String: Any]], in document: inout [String: Any]) {
        guard var layers = document["layers"] as? [[String: Any]] else { return }
        for replacement in replacements {
            guard let old = replacement["replace"] as? String, let new = replacement["with"] as? String else { continue }
            for i in layers.indices where layers[i]["source"] as? String == old { layers[i]["source"] = new }
        }
        document["layers"] = layers
    }

    private static func whyNotStatic(test: [String: Any], document: [String: Any]) -> String? {
        let operations = test["operations"] as? [[Any]] ?? []
        if let operation = operations.first(where: { ($0.first as? String) != "wait" }) {
            return "operation '\(operation.first as? String ?? "?")'"
        }
        for key in ["queryGeometry", "queryOptions"] where test[key] != nil { return "a query" }
        for key in ["debug", "collisionDebug", "showOverdrawInspector", "showPadding"] where (test[key] as? Bool) == true {
            return "the '\(key)' overlay"
        }
        for projection in [document["projection"], test["projection"]] {
            guard let projection else { continue }
            let type = (projection as? [String: Any])?["type"] as? String ?? (projection as? String)
            if type != "mercator" { return "projection '\(type ?? "?")'" }
        }
        return nil
    }

    /// Every test under `renderTests` (the suite's `integration/render-tests`),
    /// by name, whose name contains one of `filters` (all when empty).
    static func all(in renderTests: URL, matching filters: [String] = []) throws -> [RenderTest] {
        let manager = FileManager.default
        guard let walker = manager.enumerator(at: renderTests, includingPropertiesForKeys: nil) else { return [] }
        let root = renderTests.standardizedFileURL.path
        var tests: [RenderTest] = []
        for case let url as URL in walker where url.lastPathComponent == "style.json" {
            let folder = url.deletingLastPathComponent().standardizedFileURL
            let name = String(folder.path.dropFirst(root.count + 1))
            guard filters.isEmpty || filters.contains(where: { name.contains($0) }) else { continue }
            tests.append(try RenderTest(name: name, folder: folder))
        }
        return tests.sorted { $0.name < $1.name }
    }
}
