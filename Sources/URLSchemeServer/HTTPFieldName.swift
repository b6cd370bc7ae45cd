/// Field names compared as HTTP compares them: ASCII letters without case
/// (RFC 9110 §5.1), byte by byte. Foundation's `caseInsensitiveCompare`
/// goes through `NSString` on Linux, which was 5 % of a cached answer.
enum HTTPFieldName {
    /// Whether `a` and `b` name the same field.
    static func matches(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for index in 0..<x.count where x[index] != y[index] {
                    // Equal apart from case only when both are the same ASCII letter.
                    let lower = x[index] | 0x20
                    guard lower == y[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
