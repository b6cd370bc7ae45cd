import Foundation
import ImageCodecs
@testable import MapRendering
import Raster
import XCTest

/// `video` and `canvas` sources, drawn as one picture pinned to four corners
/// like an `image` source, and the axonometric camera (MapLibre Native's
/// projection mode), through whole style documents read from files.
final class PictureSourceTests: XCTestCase {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PictureSourceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// A style of one picture source (`source`'s members beside its
    /// corners, a degree around 0, 0) drawn by a raster layer over white.
    func style(_ source: String) -> Data {
        Data(##"""
        {"version": 8, "center": [0, 0], "zoom": 7,
         "sources": {"picture": {\##(source), "coordinates": [[-1, 1], [1, 1], [1, -1], [-1, -1]]}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "picture", "type": "raster", "source": "picture", "paint": {"raster-fade-duration": 0}}]}
        """##.utf8)
    }

    /// The share of `bitmap`'s pixels that are pure-ish red.
    static func redShare(_ bitmap: Bitmap) -> Double {
        var red = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y].r > 200 && bitmap[x, y].g < 60 && bitmap[x, y].b < 60 { red += 1 }
        }
        return Double(red) / Double(bitmap.width * bitmap.height)
    }

    /// A video whose first URL is a video file and whose second is a
    /// picture draws the picture (a snapshot is the first frame); one whose
    /// URLs give no picture is refused, each URL named with its reason.
    func testAVideoSourceDrawsTheFirstURLThatIsAPicture() throws {
        let folder = try folder()
        try Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 64)).write(to: folder.appendingPathComponent("clip.mp4"))
        try PNGEncoder().encode(Bitmap(width: 8, height: 8, fill: RGBA(255, 0, 0))).write(to: folder.appendingPathComponent("frame.png"))
        let drawn = try StyleDocumentRenderer(style: style(#""type": "video", "urls": ["clip.mp4", "frame.png"]"#),
                                              resources: StyleFolderResources(folder: folder)).render(width: 64, height: 64)
        XCTAssertGreaterThan(Self.redShare(drawn), 0.3, "the frame covers the middle of the view")

        XCTAssertThrowsError(try StyleDocumentRenderer(style: style(#""type": "video", "urls": ["clip.mp4", "clip.webm"]"#),
                                                       resources: StyleFolderResources(folder: folder))) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("source 'picture'"), message)
            XCTAssertTrue(message.contains("'clip.mp4' is no picture this renderer decodes"), message)
            XCTAssertTrue(message.contains("'clip.webm' does not exist"), message)
        }
        XCTAssertThrowsError(try StyleDocumentRenderer(style: style(#""type": "video", "urls": []"#),
                                                       resources: StyleFolderResources(folder: folder))) { error in
            XCTAssertTrue("\(error)".contains("'urls' is needed"), "\(error)")
        }
    }

    /// Files beside a style plus canvases drawn by the host, by id.
    struct CanvasResources: StyleResourceLoading {
        var files: StyleFolderResources
        var canvases: [String: Bitmap]

        func tileLoader(template: String) throws -> any TileLoading { try files.tileLoader(template: template) }
        func vectorTiles(url: String) throws -> (any VectorTileProviding)? { try files.vectorTiles(url: url) }
        func file(_ url: String, maximumBytes: Int) throws -> Data? { try files.file(url, maximumBytes: maximumBytes) }
        func canvas(id: String) throws -> Bitmap? { canvases[id] }
    }

    /// A canvas source draws the picture the host gives for its id; an id
    /// the host has no canvas for is refused, named.
    func testACanvasSourceDrawsTheHostsCanvas() throws {
        let folder = try folder()
        let resources = CanvasResources(files: StyleFolderResources(folder: folder),
                                        canvases: ["radar": try Bitmap(width: 4, height: 4, fill: RGBA(255, 0, 0))])
        let drawn = try StyleDocumentRenderer(style: style(#""type": "canvas", "canvas": "radar""#), resources: resources)
            .render(width: 64, height: 64)
        XCTAssertGreaterThan(Self.redShare(drawn), 0.3)
        XCTAssertThrowsError(try StyleDocumentRenderer(style: style(#""type": "canvas", "canvas": "weather""#), resources: resources)) { error in
            XCTAssertTrue("\(error)".contains("there is no canvas 'weather'"), "\(error)")
        }
    }

    /// The red pixels' bounding box: left, top, right, bottom.
    static func redBox(_ bitmap: Bitmap) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var box: (left: Int, top: Int, right: Int, bottom: Int)?
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y].r > 120 && bitmap[x, y].g < 60 {
                box = box.map { (min($0.left, x), min($0.top, y), max($0.right, x), max($0.bottom, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    /// A 60 m box at the centre seen from straight above: in perspective
    /// its roof is only larger than its foot, centred; axonometric with
    /// Native's default skew its roof rises up the image by height ÷ 3
    /// (the camera is 1.5 × the image's height away), and with `xSkew` 1,
    /// `ySkew` 0 it moves right by height ÷ 3 instead.
    func testAnAxonometricCameraLiftsHeightsAlongTheSkew() throws {
        let box = "[[-0.0002, 0.0002], [0.0002, 0.0002], [0.0002, -0.0002], [-0.0002, -0.0002], [-0.0002, 0.0002]]"
        let style = Data(##"""
        {"version": 8, "center": [0, 0], "zoom": 17,
         "sources": {"box": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [\##(box)]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "box", "type": "fill-extrusion", "source": "box",
                     "paint": {"fill-extrusion-color": "#ff0000", "fill-extrusion-height": 60}}]}
        """##.utf8)
        let document = try StyleDocumentRenderer(style: style, resources: StyleFolderResources(folder: try folder()))
        var camera = document.camera
        let perspective = try XCTUnwrap(Self.redBox(try document.render(width: 200, height: 200, camera: camera)))
        XCTAssertEqual(Double(perspective.left + perspective.right) / 2, 99.5, accuracy: 1, "centred")
        XCTAssertEqual(Double(perspective.top + perspective.bottom) / 2, 99.5, accuracy: 1)

        // The box's foot: 0.0004° at zoom 17 (512-point tiles) is 0.0004 / 360 · 512 · 2¹⁷ points.
        let foot = 0.0004 / 360 * 512 * 131_072
        // 60 m in points at the equator, with GL JS's earth radius.
        let lift = 60 / (2 * Double.pi * 6_371_008.8 / (512 * 131_072)) / 3
        camera.axonometric = AxonometricProjection()
        let up = try XCTUnwrap(Self.redBox(try document.render(width: 200, height: 200, camera: camera)))
        XCTAssertEqual(Double(up.bottom - up.top + 1), foot + lift, accuracy: 2, "the roof rises by the height over 3")
        XCTAssertEqual(Double(up.right - up.left + 1), foot, accuracy: 2, "no wider than the foot")
        XCTAssertEqual(Double(up.bottom) + 0.5, 100 + foot / 2, accuracy: 1.5, "the foot stays where it stands")

        camera.axonometric = AxonometricProjection(xSkew: 1, ySkew: 0)
        let right = try XCTUnwrap(Self.redBox(try document.render(width: 200, height: 200, camera: camera)))
        XCTAssertEqual(Double(right.right - right.left + 1), foot + lift, accuracy: 2, "the roof moves right by the height over 3")
        XCTAssertEqual(Double(right.left) - 0.5, 100 - foot / 2, accuracy: 1.5)

        camera.axonometric = AxonometricProjection(xSkew: .nan)
        XCTAssertThrowsError(try document.render(width: 200, height: 200, camera: camera)) { error in
            XCTAssertTrue("\(error)".contains("xSkew"), "\(error)")
        }
    }
}
