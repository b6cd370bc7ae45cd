import Foundation

/// HMAC-SHA-256 (RFC 2104, FIPS 180-4) under one secret key: how the HTTP
/// cache names what must not be written down. A partition (derived from a
/// request's credentials) and every `Vary` value are stored as this hash of
/// the text, never the text, so a cache directory holds no token, cookie or
/// password, and one leaked entry file does not let anyone test guesses of
/// them without the key too.
///
/// Foundation on Linux has no CryptoKit or CommonCrypto, and the package takes
/// no dependencies: so the hash is here, small and checked against the RFC
/// 4231 and FIPS 180-4 test vectors (`KeyedHashTests`).
package struct KeyedHash: Sendable {
    /// The key padded to a block, XORed with the inner and outer pads.
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    package init(key: [UInt8]) {
        var block = key.count > 64 ? Self.sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5C }
    }

    /// The HMAC of `message`.
    package func mac(_ message: some Collection<UInt8>) -> [UInt8] {
        Self.sha256(outerPad + Self.sha256(innerPad + message))
    }

    /// The HMAC of `text`'s UTF-8 bytes as 32 lower-case hex digits (the first
    /// 128 bits: plenty to tell values apart, and short in keys and files).
    func hex(_ text: String) -> String {
        Self.hex(mac(Array(text.utf8)).prefix(16))
    }

    /// `bytes` as lower-case hex digits, two a byte.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: SHA-256

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The SHA-256 digest of `message`.
    /// Works on raw buffers (no bounds checks, no array per block): the
    /// server tags every rendered answer with it, so its speed is part of
    /// each render's time to answer.
    package static func sha256(_ message: some Collection<UInt8>) -> [UInt8] {
        var padded = Array(message)
        let bitLength = UInt64(padded.count) &* 8
        padded.append(0x80)
        padded.append(contentsOf: repeatElement(0, count: (120 - padded.count % 64) % 64))
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var (h0, h1, h2, h3): (UInt32, UInt32, UInt32, UInt32) = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a)
        var (h4, h5, h6, h7): (UInt32, UInt32, UInt32, UInt32) = (0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                padded.withUnsafeBufferPointer { bytes in
                    for blockStart in stride(from: 0, to: bytes.count, by: 64) {
                        for index in 0..<16 {
                            let base = blockStart + index * 4
                            schedule[index] = UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16
                                | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
                        }
                        for index in 16..<64 {
                            let early = schedule[index - 15], late = schedule[index - 2]
                            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                        }
                        var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                        for index in 0..<64 {
                            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                            let choice = (e & f) ^ (~e & g)
                            let first = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                            let majority = (a & b) ^ (a & c) ^ (b & c)
                            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ sum0 &+ majority)
                        }
                        h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    }
                }
            }
        }
        return [h0, h1, h2, h3, h4, h5, h6, h7].flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }
}

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
