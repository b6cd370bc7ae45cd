// One import is enough: the public API of URLSchemeKit shows types of the
// modules below it (MapSnapshotOptions, GeoCoordinate, Bitmap, ImageFormat…),
// so `import URLSchemeKit` brings them too, as swift-nio's umbrella module
// does. Depend on `ImageCodecs` or `Raster` alone for codecs or pixels without
// the URL Loading System.
@_exported import ImageCodecs
@_exported import MapRendering
@_exported import Raster
