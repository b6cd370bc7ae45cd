/// 8-bit samples loaded into 16-bit lanes, for the codecs' vector loops
/// (JPEG and VP8 colour conversion and upsampling).
///
/// Element by element: the generic SIMD widening initialiser is not
/// specialised on this toolchain, while this form compiles to a load and an
/// unpack.
extension SIMD16 where Scalar == Int16 {
    /// The sixteen samples from `p` on.
    @inline(__always)
    init(samples p: UnsafePointer<UInt8>) {
        self.init(Int16(p[0]), Int16(p[1]), Int16(p[2]), Int16(p[3]), Int16(p[4]), Int16(p[5]), Int16(p[6]), Int16(p[7]),
                  Int16(p[8]), Int16(p[9]), Int16(p[10]), Int16(p[11]), Int16(p[12]), Int16(p[13]), Int16(p[14]), Int16(p[15]))
    }
}

extension SIMD8 where Scalar == Int16 {
    /// The eight samples from `p` on.
    @inline(__always)
    init(samples p: UnsafePointer<UInt8>) {
        self.init(Int16(p[0]), Int16(p[1]), Int16(p[2]), Int16(p[3]), Int16(p[4]), Int16(p[5]), Int16(p[6]), Int16(p[7]))
    }
}
