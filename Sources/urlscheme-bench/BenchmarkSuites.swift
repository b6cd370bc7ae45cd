/// Every suite `urlscheme-bench` knows, in the order they run by default.
/// A new issue adds its suite here (one line) and in a file of its own.
enum BenchmarkSuites {
    static let all: [any BenchmarkSuite] = [
        CacheBenchmarks(),
        PNGBenchmarks(),
        JPEGBenchmarks(),
        GIFBenchmarks(),
        RasterBenchmarks(),
        MapBenchmarks(),
        LabelBenchmarks(),
        AssetBenchmarks(),
        HTTPBenchmarks(),
        ScrollBenchmarks(),
        VectorTileBenchmarks(),
        WebPLosslessBenchmarks(),
        WebPLosslessEncodeBenchmarks(),
        WebPLossyEncodeBenchmarks(),
        WebPLossyBenchmarks(),
        WebPAnimatedBenchmarks(),
        AnimationMemoryBenchmarks(),
        VectorMapBenchmarks(),
        VectorMapReuseBenchmarks(),
        StyleMapBenchmarks(),
        RecordingBenchmarks(),
    ]
}
