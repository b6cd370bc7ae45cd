import Foundation
import ImageCodecs
import MapRendering

/// The most one load may cost: what a URL from a stranger can make the
/// process decode, allocate, draw, fetch and wait for. A load over budget
/// fails fast with a `URLError` naming the limit and its value (`.badURL`
/// when the URL itself asks for too much, `.cannotDecodeContentData` for a
/// stored file over it, `.timedOut` for the deadline, `.resourceUnavailable`
/// for a full render queue); it never runs to completion first.
///
/// Each `URLSchemeKitEnvironment` has its own, checked when a render is
/// planned (never while a URL is parsed: a typed URL is a pure value). The
/// defaults suit a server that renders URLs from strangers. An app that
/// renders only URLs it made itself may raise them:
/// ```swift
/// var budget = ResourceBudget()
/// budget.renderDeadline = 120
/// budget.filters = 64
/// configuration.installURLSchemeKit(URLSchemeKitEnvironment(budget: budget))
/// ```
public struct ResourceBudget: Sendable, Equatable {
    /// Pixels (width × height) a stored photo or a map tile may have to be
    /// decoded at all; checked from its header before any pixel storage exists.
    public var decodedPixels = defaultMaximumPixelCount
    /// Pixels of a result, and of every image an edit makes on the way
    /// (a rotated canvas, a resized copy).
    public var producedPixels = defaultMaximumPixelCount
    /// Scans a JPEG file may have (a progressive photo has about ten).
    public var jpegScans = JPEGDecoder.defaultMaximumScanCount
    /// Frames an animated result may have (`asset://` of an animated GIF or
    /// WebP written as GIF or WebP): 500, 50 seconds at the 100 ms browsers
    /// give a fast frame (each frame is resized and encoded, whatever its
    /// size). A source with more is refused before a frame is decoded;
    /// `frame=N` still takes one of them.
    public var animationFrames = 500
    /// Pixels of an animated result times its frames: 2²² (4,194,304), a
    /// phone-sized feed's 320×320 of 40 frames, 240×240 of 72, or 320×180
    /// of 72; an eighth of what the `ImageLoader` keeps of one animation
    /// (`ImageLoader.Configuration.defaultMaximumAnimationPixelCount`), since
    /// every frame is resized and encoded here, not only decoded. At 2²³, 100
    /// frames of 320×240 in which every pixel changes took 3.5 s as lossy
    /// WebP and 3.9 s lossless (release, on a loaded machine), over the 2 s
    /// a hostile URL may cost.
    public var animationPixels = 1 << 22
    /// Pixels an animated source's frames are composited at in all (its
    /// canvas times its frames) for one result: 2²⁶ (67,108,864), 100
    /// frames of 819×819, whatever size they are shown at.
    public var decodedAnimationPixels = 1 << 26
    /// Bytes an animated result may grow to while it is encoded (with three
    /// canvases, the encoder's memory): 32 MiB.
    public var animationBytes = 32 << 20
    /// Filters one `asset://` URL may chain.
    public var filters = 16
    /// Points across all the paths of one `map://` URL.
    public var pathPoints = 20_000
    /// Tiles one `map://` snapshot may fetch.
    public var tiles = 400
    /// Tiles fetched at once for one snapshot.
    public var concurrentTileFetches = 8
    /// What one vector tile may cost: bytes stored and inflated, features and
    /// vertices, PMTiles directory depth. A vector source's archive is opened
    /// with these (`VectorTileSource.open(_:style:budget:)`), so each is checked
    /// as a tile is read, before it is inflated or decoded.
    public var vectorTile = VectorTileLimits()
    /// What one vector map snapshot may cost: tiles read, and features and
    /// vertices in the drawn layers, checked before anything is drawn, and
    /// the stroke work of its lines (dashes, offsets, joins), checked per line
    /// before it is made.
    public var vectorSnapshot = VectorMapLimits()
    /// What a vector source's style may cost to read: bytes, layers, nesting
    /// depth, checked before the JSON is parsed further, and the nodes of each
    /// property's expression, as it is read.
    public var vectorStyle = StyleLimits()
    /// Wall-clock seconds one render may run, from the moment it starts
    /// (time spent waiting for a render slot is not counted).
    public var renderDeadline: TimeInterval = 30
    /// Renders that may wait for a slot on a `RenderQueue`; the next one is refused.
    public var pendingRenders = 4096

    /// The defaults, for a server that renders URLs from strangers.
    public init() {}
}
