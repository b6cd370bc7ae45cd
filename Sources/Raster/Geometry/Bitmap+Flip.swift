/// The axis a flip mirrors across.
public enum FlipDirection: String, Sendable, CaseIterable {
    /// Left becomes right.
    case horizontal
    /// Top becomes bottom.
    case vertical
}

extension Bitmap {
    /// A mirrored copy (exact: pixels are moved, never resampled).
    public func flipped(_ direction: FlipDirection) -> Bitmap {
        var copy = self
        let w = width, h = height
        guard !isEmpty else { return copy }
        pixels.withUnsafeBufferPointer { s in
            copy.pixels.withUnsafeMutableBufferPointer { d in
                let src = UnsafeRawPointer(s.baseAddress!).assumingMemoryBound(to: UInt8.self)
                switch direction {
                case .vertical:
                    for y in 0..<h {
                        UnsafeMutableRawPointer(d.baseAddress! + y * w * 4)
                            .copyMemory(from: src + (h - 1 - y) * w * 4, byteCount: w * 4)
                    }
                case .horizontal:
                    let s32 = UnsafeRawPointer(src).bindMemory(to: UInt32.self, capacity: w * h)
                    let d32 = UnsafeMutableRawPointer(d.baseAddress!).bindMemory(to: UInt32.self, capacity: w * h)
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w { d32[row + x] = s32[row + w - 1 - x] }
                    }
                }
            }
        }
        return copy
    }
}
