/// What part of the world a snapshot shows.
public enum MapCamera: Hashable, Sendable {
    /// Centred on `center` at a fractional zoom level (0 shows the whole world in 256 points).
    case zoom(center: GeoCoordinate, zoom: Double)
    /// Centred on `center`, zoomed so at least this many degrees show each way (MKCoordinateSpan).
    case span(center: GeoCoordinate, latitudeDelta: Double, longitudeDelta: Double)
    /// Zoomed (and, without a centre, centred) so every marker and path shows,
    /// `padding` points clear of the edges, markers unclipped.
    case fit(center: GeoCoordinate?, padding: Double)
}
