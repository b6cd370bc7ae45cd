import XCTest
import ImageCodecs
@testable import URLSchemeKit

final class AssetURLTests: XCTestCase {
    private func message<T: SchemeURL>(_ type: T.Type, _ text: String) -> String {
        do {
            _ = try T(url: URL(string: text)!)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }

    func testTheSeedExampleAndAFullEditParse() throws {
        let simple = try AssetURL(url: URL(string: "asset://?id=123&width=640&rotate=90&filter=sepia")!)
        XCTAssertEqual(simple, try AssetURL(id: "123", width: 640, rotate: 90, filters: [.sepia]))
        let full = try AssetURL(url: URL(string: "asset://?id=abc_1&width=1920&height=1280&mode=fill&crop=0.1,0.2,0.5,0.5&flip=hv&filter=contrast:1.2,blur:1.5,sharpen,grayscale&format=jpg&quality=92")!)
        XCTAssertEqual(full.crop, NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5))
        XCTAssertEqual(full.filters, [.contrast(1.2), .blur(radius: 1.5), .sharpen(amount: 1), .grayscale])
        XCTAssertEqual(full.flip, .hv)
        XCTAssertEqual(full.format, .jpeg)
        XCTAssertEqual(try AssetURL(url: full.url), full)
        XCTAssertFalse(full.url.absoluteString.contains("%"), full.url.absoluteString)
    }

    func testBuiltURLsReadBack() throws {
        let values = [
            try AssetURL(id: "x"),
            try AssetURL(id: "mzxw6ytboi3tmnrz2xhlhg5qcm", width: 256, mode: .fit, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.333333),
                     rotate: -17.5, flip: .v, filters: [.brightness(0.75), .saturation(0), .sharpen(amount: 2.5), .invert], format: .png, quality: 40),
            try AssetURL(id: "a-b", width: 10, height: 20, mode: .stretch),
            try AssetURL(id: "gif", frame: 3, width: 64),
            try AssetURL(id: "gif", frame: 10_000),
        ]
        for value in values { XCTAssertEqual(try AssetURL(url: value.url), value, value.url.absoluteString) }
        // Frames count from 1 in the URL and the value alike; the first is the default and is not written.
        XCTAssertEqual(try AssetURL(id: "gif", frame: 3).url.absoluteString, "asset://?id=gif&frame=3")
        // frame=1 picks the first frame alone; without it an animation stays animated.
        XCTAssertEqual(try AssetURL(id: "gif", frame: 1).url.absoluteString, "asset://?id=gif&frame=1")
        XCTAssertEqual(try AssetURL(url: XCTUnwrap(URL(string: "asset://?id=gif&frame=1"))).frame, 1)
        XCTAssertEqual(try AssetURL(url: XCTUnwrap(URL(string: "asset://?id=gif"))).frame, nil)
        XCTAssertThrowsError(try AssetURL(id: "gif", frame: 0), "frame 0 is refused when made, as in the URL")
        let avatars = [try AvatarURL(ids: ["a"]), try AvatarURL(ids: ["a", "b", "c", "d"], size: 512, shape: .square, format: .jpeg, quality: 60)]
        for value in avatars { XCTAssertEqual(try AvatarURL(url: value.url), value, value.url.absoluteString) }
    }

    func testBadEditsNameTheParameter() {
        let cases: [(String, String)] = [
            ("asset://?width=5", "parameter 'id' is required"),
            ("asset://?id=../../etc/passwd", "parameter 'id' must be 1–128 letters, digits, '-' or '_', got '../../etc/passwd'"),
            ("asset://?id=1&crop=0.5,0.5,0,0.2", "parameter 'crop' is empty: width and height must be more than 0, got '0.5,0.5,0,0.2'"),
            ("asset://?id=1&crop=0.5,0.5,0.6,0.2", "parameter 'crop' lies outside the unit square: need x,y ≥ 0 and x+width, y+height ≤ 1, got '0.5,0.5,0.6,0.2'"),
            ("asset://?id=1&crop=0.5,0.5", "parameter 'crop' must be 'x,y,width,height' in 0…1, got '0.5,0.5'"),
            ("asset://?id=1&filter=sepia,vintage", "parameter 'filter' has unknown filter 'vintage' (known: grayscale, sepia, invert, blur, sharpen, brightness, contrast, saturation)"),
            ("asset://?id=1&filter=blurr:2", "parameter 'filter' has unknown filter 'blurr'; did you mean 'blur'? (known: grayscale, sepia, invert, blur, sharpen, brightness, contrast, saturation)"),
            ("asset://?id=1&filter=blur", "parameter 'filter' 'blur' needs a value, as in 'blur:25'"),
            ("asset://?id=1&filter=blur:500", "parameter 'filter blur' must be a number from 0 to 100, got '500'"),
            ("asset://?id=1&filter=sepia:3", "parameter 'filter' 'sepia' takes no value"),
            ("asset://?id=1&flip=x", "parameter 'flip' must be one of h, v, hv, got 'x'"),
            ("asset://?id=1&width=100&mode=fill", "parameter 'mode' 'fill' needs both 'width' and 'height'"),
            ("asset://?id=1&width=0", "parameter 'width' must be a whole number from 1 to 16384, got '0'"),
            ("asset://?id=1&frame=0", "parameter 'frame' must be a whole number from 1 to 10000, got '0'"),
            ("asset://?id=1&frame=10001", "parameter 'frame' must be a whole number from 1 to 10000, got '10001'"),
            ("asset://?id=1&frame=last", "parameter 'frame' must be a whole number from 1 to 10000, got 'last'"),
        ]
        for (url, expected) in cases { XCTAssertEqual(message(AssetURL.self, url), expected, url) }

        XCTAssertEqual(message(AvatarURL.self, "avatar://?id=a&id=b&id=c&id=d&id=e"),
                       "parameter 'id' is given 5 times; an avatar shows at most 4 participants")
        XCTAssertEqual(message(AvatarURL.self, "avatar://?size=64"), "parameter 'id' is required: give 1 to 4 participants' asset ids")
        XCTAssertEqual(message(AvatarURL.self, "avatar://?id=a&format=jpeg"),
                       "parameter 'format' 'jpeg' cannot hold a circle's transparent corners; use png or shape=square")
    }

    /// Every scheme's `format=` takes GIF (any case); a word that names no
    /// format is refused by name, listing the formats it can give.
    func testEveryFormatIsTakenAndOthersAreRefusedByName() throws {
        for format in ["gif", "GIF"] {
            XCTAssertEqual(try AssetURL(url: URL(string: "asset://?id=1&format=\(format)")!).format, .gif)
            XCTAssertEqual(try AvatarURL(url: URL(string: "avatar://?id=a&shape=square&format=\(format)")!).format, .gif)
            XCTAssertEqual(try PollURL(url: URL(string: "poll://?question=Q&option=a&option=b&votes=0,0&format=\(format)")!).format, .gif)
            XCTAssertEqual(try MapURL(url: URL(string: "map://?latitude=1&longitude=2&format=\(format)")!).format, .gif)
        }
        XCTAssertEqual(message(AssetURL.self, "asset://?id=1&format=tiff"), "parameter 'format' must be one of png, jpeg, webp, gif, got 'tiff'")
    }
}

extension AssetURLTests {
    /// A typed URL is a pure value: any chain parses; the environment's
    /// budget refuses a long one when the render is planned, before any read.
    func testTheFilterChainIsBudgetedWhenTheRenderIsPlanned() throws {
        let id = "mzxw6ytboi3tmnrz2xhlhg5qcm"
        let sixteen = [String](repeating: "invert", count: 16).joined(separator: ",")
        XCTAssertEqual(message(AssetURL.self, "asset://?id=\(id)&filter=\(sixteen),sepia"), "parsed")
        let long = try AssetURL(url: XCTUnwrap(URL(string: "asset://?id=\(id)&filter=\(sixteen),sepia")))
        let context = RenderContext(environment: URLSchemeKitEnvironment(imageCache: nil, httpCache: nil))
        XCTAssertThrowsError(try AssetRenderer().render(long, in: context)) { error in
            XCTAssertEqual("\(error)", "parameter 'filter' chains 17 filters; at most 16 (ResourceBudget.filters)")
        }
        var budget = ResourceBudget()
        budget.filters = 32
        let generous = RenderContext(environment: URLSchemeKitEnvironment(budget: budget, imageCache: nil, httpCache: nil))
        XCTAssertThrowsError(try AssetRenderer().render(long, in: generous)) { error in
            XCTAssertEqual((error as? URLError)?.code, .resourceUnavailable, "past the budget, on to the (missing) store: \(error)")
        }
    }
}
