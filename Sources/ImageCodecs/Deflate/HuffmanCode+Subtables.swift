extension HuffmanCode {
    /// The index bits of a two-level decoding table's subtable that starts
    /// with a code of `length` bits (more than `rootBits`): as many as the
    /// longest code sharing its root prefix has past the root, found as zlib's
    /// inflate_table sizes it. Canonical order places those codes together;
    /// `remaining(n)` counts the codes of `n` bits not placed yet. Shared by
    /// inflate and WebP lossless, whose prefix codes are built the same way.
    static func subtableBits(firstLength length: Int, rootBits: Int, remaining: (Int) -> Int) -> Int {
        var bits = length - rootBits
        var free = (1 << bits) - remaining(length)
        while free > 0 && rootBits + bits < 15 {
            bits += 1
            free = free * 2 - remaining(rootBits + bits)
        }
        return bits
    }
}
