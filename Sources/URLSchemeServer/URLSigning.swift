import Foundation
import URLSchemeKit

/// imgproxy's URL signatures: a signed URL is `/SIGNATURE/route?…`, where
/// SIGNATURE is the unpadded base64url of HMAC-SHA256 under a key of the salt
/// followed by the rest of the target (`/map?latitude=…`, byte for byte as
/// sent). Several key and salt pairs may be given at once so keys can be
/// rotated: a signature made with any of them is accepted, and
/// ``signature(of:)`` signs with the first.
///
/// ```swift
/// let signing = try URLSigning(keys: [Array("secret".utf8)], salts: [Array("hello".utf8)])
/// let target = "/" + signing.signature(of: "/map?latitude=60.17&longitude=24.94&zoom=12") + "/map?latitude=60.17&longitude=24.94&zoom=12"
/// ```
public struct URLSigning: Sendable {
    /// Each pair's keyed hash and salt, in the order given.
    private let pairs: [(hash: KeyedHash, salt: [UInt8])]

    /// Signing with `keys[i]` and `salts[i]` (the same number of each, at
    /// least one; keys not empty). Throws ``ServerError`` saying what is wrong.
    public init(keys: [[UInt8]], salts: [[UInt8]]) throws {
        guard !keys.isEmpty, keys.count == salts.count else {
            throw ServerError("signing needs as many salts as keys (\(keys.count) keys, \(salts.count) salts)")
        }
        guard keys.allSatisfy({ !$0.isEmpty }) else { throw ServerError("a signing key may not be empty") }
        pairs = zip(keys, salts).map { (KeyedHash(key: $0), $1) }
    }

    /// The signature of `target` (its path and query, starting with `/`) under the first pair.
    public func signature(of target: String) -> String {
        Self.signature(pairs[0], Array(target.utf8))
    }

    /// Whether `signature` signs `target` under any pair (each compared in constant time).
    func verifies(_ signature: some StringProtocol, target: some StringProtocol) -> Bool {
        let given = Array(signature.utf8)
        let message = Array(target.utf8)
        var matched = false
        for pair in pairs {
            let expected = Array(Self.signature(pair, message).utf8)
            guard expected.count == given.count else { continue }
            var difference: UInt8 = 0
            for (left, right) in zip(expected, given) { difference |= left ^ right }
            matched = matched || difference == 0
        }
        return matched
    }

    private static func signature(_ pair: (hash: KeyedHash, salt: [UInt8]), _ message: [UInt8]) -> String {
        Data(pair.hash.mac(pair.salt + message)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The byte strings of `text`: hex-encoded values separated by commas
    /// (imgproxy's `IMGPROXY_KEY` form). Throws ``ServerError`` naming `source`.
    static func hexList(_ text: String, source: String) throws -> [[UInt8]] {
        try text.split(separator: ",", omittingEmptySubsequences: false).enumerated().map { index, item in
            let digits = Array(item.trimmingCharacters(in: .whitespaces).utf8)
            guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 1024 else {
                throw ServerError("\(source): value \(index + 1) is not an even number (2 to 1024) of hex digits")
            }
            return try stride(from: 0, to: digits.count, by: 2).map { offset in
                guard let byte = UInt8(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16) else {
                    throw ServerError("\(source): value \(index + 1) is not hex digits")
                }
                return byte
            }
        }
    }
}
