import Foundation

/// One pass over a style's bytes before it is decoded: the deepest nesting of
/// `[`/`{` outside strings, and how many elements the top-level `layers` array
/// has. It stops as soon as either passes its limit, allocates nothing, and does
/// not validate (the decoder does that afterwards).
struct StyleDocumentScan {
    private(set) var deepest = 0
    private(set) var layerCount = 0

    init(_ data: Data, maximumNesting: Int, maximumLayerCount: Int) {
        data.withUnsafeBytes { bytes in scan(bytes, maximumNesting, maximumLayerCount) }
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer, _ maximumNesting: Int, _ maximumLayerCount: Int) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var depth = 0
        var index = 0
        var lastKeyIsLayers = false  // the last string read directly in the root object was "layers"
        var inLayers = false         // inside the root's `layers` array
        let layersKey = Array("layers".utf8)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case quote:
                let start = index + 1
                index += 1
                while index < bytes.count, bytes[index] != quote {
                    index += bytes[index] == backslash ? 2 : 1
                }
                if depth == 1 {
                    lastKeyIsLayers = index - start == layersKey.count
                        && (0..<layersKey.count).allSatisfy { bytes[start + $0] == layersKey[$0] }
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1, byte == UInt8(ascii: "["), lastKeyIsLayers { inLayers = true }
                if depth == 2, inLayers {
                    layerCount += 1
                    if layerCount > maximumLayerCount { return }
                }
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > maximumNesting { return }
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 1 { inLayers = false }
            default:
                break
            }
            index += 1
        }
    }
}
