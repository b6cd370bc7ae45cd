/// MapLibre Native's axonometric projection mode (`ProjectionMode`:
/// `axonometric`, `xSkew`, `ySkew`): the ground is seen as the camera sees it,
/// but heights are drawn without perspective, each metre up moving a point by
/// the same image distance in the direction the skew gives, as in an
/// architect's axonometric drawing. Only what stands above the ground
/// (`fill-extrusion`) looks different.
///
/// Native sets two entries of its projection matrix (`TransformState::getProjMatrix`):
/// the height no longer enters the perspective divide, and adds
/// `xSkew` × height to clip x and `ySkew` × height to clip y. A point `z`
/// pixels up is therefore moved by (`xSkew`, −`ySkew`) · `z` / w ·
/// (width, height) / 2 image pixels, w being its ground point's depth.
public struct AxonometricProjection: Sendable, Equatable {
    /// Clip x gained per pixel of height, over the depth (Native's default 0).
    public var xSkew: Double
    /// Clip y gained per pixel of height, over the depth (Native's default 1: up the image).
    public var ySkew: Double

    /// The skews a projection may have: beyond them a metre of height would
    /// cross the image many times over.
    public static let skewRange = -100.0...100.0

    /// An axonometric projection with Native's default skews, unless given.
    public init(xSkew: Double = 0, ySkew: Double = 1) {
        self.xSkew = xSkew
        self.ySkew = ySkew
    }
}
