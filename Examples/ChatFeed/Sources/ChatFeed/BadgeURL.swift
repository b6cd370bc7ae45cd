import Foundation
import URLSchemeKit

/// `badge://?text=42&color=e53935`: an unread-count badge, this app's own
/// scheme, written the way the README's "Writing a scheme" describes.
struct BadgeURL: SchemeURL {
    static let scheme = "badge"
    static let parameterNames = ["text", "color"]

    var text: String
    var color: RGBA

    init(text: String, color: RGBA = RGBA(0xE5, 0x39, 0x35)) {
        self.text = text
        self.color = color
    }

    init(query: QueryReader) throws {
        text = try query.required("text")
        guard (1...4).contains(text.count) else {
            throw URLParameterError(parameter: "text", reason: "must be 1 to 4 characters, got \(text.count)")
        }
        let hex = try query.string("color") ?? "e53935"
        guard let color = RGBA(hex: hex) else {
            throw URLParameterError(parameter: "color", reason: "must be RRGGBB or RRGGBBAA, got '\(hex)'")
        }
        self.color = color
    }

    func write(to query: inout QueryWriter) {
        query.add("text", text)
        query.add("color", color.hex)
    }
}

/// Draws the badge: a filled circle with the text centred in DejaVu Sans.
struct BadgeRenderer: Renderer {
    /// Changed whenever the drawing changes, so cached badges are drawn again.
    var version: String { "badge-1" }

    func render(_ badge: BadgeURL, in context: RenderContext) throws -> RenderedImage {
        let cancellation = context.cancellation
        let size = 48.0
        var canvas = try Canvas(width: Int(size), height: Int(size))
        try canvas.fill(polygons: [circle(center: Point(size / 2, size / 2), radius: size / 2 - 1)], color: badge.color)
        try cancellation.check()
        let font = try TrueTypeFont.dejaVuSans
        let line = TextLine(badge.text, font: font, size: 22)
        try canvas.draw(line, at: Point((size - line.width) / 2, size / 2 + 8), color: .white)
        return RenderedImage(data: try PNGEncoder().encode(canvas.bitmap), mimeType: "image/png")
    }

    private func circle(center: Point, radius: Double) -> [Point] {
        (0..<64).map { step in
            let angle = Double(step) / 64 * 2 * Double.pi
            return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
        }
    }
}

/// Joins the two for URLSession.
final class BadgeURLProtocol: SchemeURLProtocol {
    override class var schemes: Set<String> { [BadgeURL.scheme] }
    override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: BadgeURL(url: requestURL))
    }
}
