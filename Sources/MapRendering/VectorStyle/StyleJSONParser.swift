import Foundation

/// Reads JSON bytes into `StyleJSON`: one pass, no thrown errors on the way
/// (Foundation's `JSONDecoder` throws and catches a `DecodingError` per scalar
/// when the type is not known ahead, which made a 4 MB style take seconds), and
/// nesting bounded by `maximumDepth`. Strict RFC 8259 except that invalid UTF-8
/// in strings is repaired (U+FFFD) rather than refused.
///
/// Errors name the line and column; ``position(of:in:maximumDepth:)`` finds
/// where a value lies, for an error found after parsing (a second pass, paid
/// only on the error path, so a good style keeps no positions).
struct StyleJSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let maximumDepth: Int
    private var index = 0
    /// The member and element path sought by `position(of:in:maximumDepth:)`
    /// (nil while parsing), and the path of the value being read.
    private var target: [String]?
    private var path: [String] = []

    /// The document in `data`, or a `.malformedJSON` error naming the line and column.
    static func parse(_ data: Data, maximumDepth: Int) throws -> StyleJSON {
        try data.withUnsafeBytes { bytes in
            var parser = StyleJSONParser(bytes: bytes, maximumDepth: maximumDepth)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw parser.error("more after the document") }
            return value
        }
    }

    /// The line and column (from 1) of the value at `path` (member names and
    /// array indices from the root, e.g. `["layers", "3", "paint", "line-width"]`),
    /// or nil when the document has none there.
    static func position(of path: [String], in data: Data, maximumDepth: Int) -> (line: Int, column: Int)? {
        data.withUnsafeBytes { bytes in
            var parser = StyleJSONParser(bytes: bytes, maximumDepth: maximumDepth)
            parser.target = path
            do {
                _ = try parser.value(depth: 0)
            } catch is Found {
                return lineAndColumn(of: parser.index, in: bytes)
            } catch {}
            return nil
        }
    }

    /// Thrown to stop the search at the sought value.
    private struct Found: Error {}

    /// Stops the search when the value about to be read is the sought one.
    private mutating func checkTarget() throws {
        guard let target, path == target else { return }
        skipWhitespace()
        throw Found()
    }

    /// The line and column (from 1; columns in characters) of `offset`.
    private static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                column += 1
            }
        }
        return (line, column)
    }

    private init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func error(_ what: String) -> VectorStyleError {
        var error = VectorStyleError(.malformedJSON, detail: "the style is not valid JSON: \(what)")
        (error.line, error.column) = Self.lineAndColumn(of: index, in: bytes)
        return error
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("a truncated literal") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("an unknown literal")
        }
        index += count
    }

    private mutating func value(depth: Int) throws -> StyleJSON {
        skipWhitespace()
        guard let byte = current else { throw error("a value expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("an unexpected character")
        }
    }

    private mutating func array(depth: Int) throws -> StyleJSON {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
        index += 1  // [
        var elements: [StyleJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            if target != nil {
                path.append(String(elements.count))
                try checkTarget()
            }
            elements.append(try value(depth: depth))
            if target != nil { path.removeLast() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("',' or ']' expected")
            }
        }
    }

    private mutating func object(depth: Int) throws -> StyleJSON {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
        index += 1  // {
        var members: [String: StyleJSON] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("a member name expected") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("':' expected") }
            index += 1
            if target != nil {
                path.append(key)
                try checkTarget()
            }
            members[key] = try value(depth: depth)
            if target != nil { path.removeLast() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("',' or '}' expected")
            }
        }
    }

    /// A string from its opening quote; the common case (no escapes) is one copy.
    private mutating func string() throws -> String {
        index += 1  // "
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("a control character in a string") }
            index += 1
        }
        // Escapes: collect the bytes, decoding escapes as they come.
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw error("a truncated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default: throw error("an unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw error("a control character in a string") }
                utf8.append(byte)
            }
        }
        throw error("an unterminated string")
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), a surrogate pair taking
    /// the following `\uXXXX`; a lone surrogate becomes U+FFFD.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let saved = index
            index += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                index = saved
            }
        }
        return Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number by JSON's grammar, converted by the standard library; a value
    /// that overflows a double is refused.
    private mutating func number() throws -> Double {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw error("a digit expected") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a digit expected in the exponent") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("a number out of range") }
        return value
    }
}
