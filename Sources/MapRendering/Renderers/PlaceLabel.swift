import Foundation
import Raster

/// A place name placed on a snapshot: the place, its dot, and its text's line
/// and frame in output pixels.
///
/// `layout(_:in:)` chooses them by `Place.prominence` (population, fourfold for
/// national capitals; smaller places only as the zoom grows), each beside its dot on the first side
/// where it stays inside the image and clear of every label, dot and marker
/// already placed.
public struct PlaceLabel: Sendable {
    /// The place labelled.
    public let place: Place
    /// The dot marking the place, in output pixels.
    public let point: Point
    /// The text, laid out.
    public let line: TextLine
    /// Where the left end of the text's baseline lies, in output pixels.
    public let origin: Point
    /// The box the text and its halo cover, in whole output pixels.
    public let frame: PixelRect

    /// Text size in points: capitals and cities of a million people or more a little larger.
    static func textSize(for place: Place) -> Double { place.isCapital || place.population >= 1_000_000 ? 12.5 : 11 }
    /// The radius of a place's dot, in points.
    static func dotRadius(_ place: Place) -> Double { place.isCapital ? 3 : 2.2 }
    /// Halo width around the text, in points.
    static let haloWidth = 1.5
    /// Points between a dot and its text.
    static let gap = 3.0
    /// Points kept clear around each label, so neighbours do not touch.
    static let spacing = 2.0
    /// The most labels one snapshot places (a bound on the collision tests, never reached by a readable map).
    static let maximumCount = 400

    /// The least `Place.prominence` labelled at `zoom`: ten million at zoom 0,
    /// ten times less every three zoom levels.
    public static func minimumProminence(zoom: Double) -> Int {
        Int(pow(10, 7 - zoom / 3))
    }

    /// The labels `options` gets in `viewport`: none when `options.labels` is `.none`.
    public static func layout(_ options: MapSnapshotOptions, in viewport: MapViewport) throws -> [PlaceLabel] {
        guard options.labels == .places else { return [] }
        let font = try TrueTypeFont.dejaVuSans
        let scale = options.scale
        let width = Double(viewport.pixelWidth), height = Double(viewport.pixelHeight)
        let minimumProminence = minimumProminence(zoom: viewport.zoom)
        // Markers are drawn last and on top: labels keep clear of their pins.
        var occupied = options.markers.compactMap { marker -> PixelRect? in
            let tip = viewport.pixel(for: marker.coordinate)
            guard tip.x.isFinite, tip.y.isFinite else { return nil }  // behind a pitched camera
            let pin = MarkerPin.bounds(of: marker, at: tip, scale: scale)
            return frame(x: pin.x, y: pin.y, width: pin.width, height: pin.height)
        }
        // The attribution's corner, too.
        let attribution = try MapAttribution.frame(BasemapRenderer.attribution(for: options), width: viewport.pixelWidth,
                                                   height: viewport.pixelHeight, scale: scale)
        occupied.append(attribution)
        let spacing = spacing * scale
        var labels: [PlaceLabel] = []
        for place in try Place.all {
            guard place.prominence >= minimumProminence else { break }  // ranked: none further qualifies
            let p = viewport.pixel(for: place.coordinate)
            guard p.x >= 0, p.x < width, p.y >= 0, p.y < height else { continue }
            let radius = dotRadius(place) * scale
            let dot = frame(x: p.x - radius - 1, y: p.y - radius - 1, width: 2 * radius + 2, height: 2 * radius + 2)
            guard !occupied.contains(where: { $0.intersects(dot) }) else { continue }
            let size = textSize(for: place) * scale
            let line = TextLine(place.name, font: font, size: size)
            let halo = haloWidth * scale, gap = gap * scale + radius
            // Latin capitals rise about 0.73 em; descenders drop about 0.24 em.
            let rise = 0.76 * size, drop = 0.24 * size
            let candidates = [
                Point(p.x + gap, p.y + (rise - drop) / 2),                 // right
                Point(p.x - gap - line.width, p.y + (rise - drop) / 2),    // left
                Point(p.x - line.width / 2, p.y - gap - drop),             // above
                Point(p.x - line.width / 2, p.y + gap + rise),             // below
            ]
            for origin in candidates {
                let box = frame(x: origin.x - halo, y: origin.y - rise - halo, width: line.width + 2 * halo, height: rise + drop + 2 * halo)
                let clearance = frame(x: Double(box.x) - spacing, y: Double(box.y) - spacing,
                                      width: Double(box.width) + 2 * spacing, height: Double(box.height) + 2 * spacing)
                guard box.x >= 0, box.y >= 0, box.x + box.width <= viewport.pixelWidth, box.y + box.height <= viewport.pixelHeight,
                      !occupied.contains(where: { $0.intersects(clearance) }) else { continue }
                labels.append(PlaceLabel(place: place, point: Point(p.x, p.y), line: line, origin: origin, frame: box))
                occupied.append(box)
                occupied.append(dot)
                break
            }
            if labels.count >= maximumCount { break }
        }
        return labels
    }

    /// Draws the dots (a disc for a town, a ringed dot for a capital, each on a
    /// halo; every layer of dots in one fill), then the names over their halos.
    static func draw(_ labels: [PlaceLabel], on canvas: inout Canvas, palette: MapPalette, scale: Double) throws {
        var halos = Path(), dots = Path(), rings = Path()
        for label in labels {
            let radius = dotRadius(label.place) * scale
            halos.append(Path.circle(center: label.point, radius: radius))
            if label.place.isCapital {
                rings.append(Path.circle(center: label.point, radius: radius * 0.8))
                dots.append(Path.circle(center: label.point, radius: radius * 0.35))
            } else {
                dots.append(Path.circle(center: label.point, radius: radius * 0.7))
            }
        }
        try canvas.fill(halos, color: palette.halo)
        try canvas.stroke(rings, color: palette.text, style: StrokeStyle(width: 1.2 * scale))
        try canvas.fill(dots, color: palette.text)
        for label in labels {
            try canvas.draw(label.line, at: label.origin, color: palette.text, halo: palette.halo, haloWidth: haloWidth * scale)
        }
    }

    /// The whole pixels covering a box (rounded outwards).
    static func frame(x: Double, y: Double, width: Double, height: Double) -> PixelRect {
        let left = Int(x.rounded(.down)), top = Int(y.rounded(.down))
        return PixelRect(x: left, y: top, width: Int((x + width).rounded(.up)) - left, height: Int((y + height).rounded(.up)) - top)
    }
}

extension PixelRect {
    /// Whether the two rectangles share any pixel.
    func intersects(_ other: PixelRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}
