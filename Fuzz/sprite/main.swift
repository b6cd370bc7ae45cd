import Foundation
@testable import MapRendering

// libFuzzer entry for a sprite's JSON index (`SpriteSheet.readIndex`) under
// small limits (64 entries, 4 KB): only SpriteError may be thrown; every
// entry read has a positive size within 65535, a positive pixel ratio, and
// stretch ranges and content inside the image, and no more entries than the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpriteIndex(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var limits = SpriteLimits()
    limits.maximumEntryCount = 64
    limits.maximumIndexBytes = 4096
    let entries: [SpriteSheet.Entry]
    do {
        entries = try SpriteSheet.readIndex(data, file: "fuzz.json", limits: limits)
    } catch is SpriteError {
        return 0
    } catch {
        preconditionFailure("readIndex threw \(error)")
    }
    precondition(entries.count <= limits.maximumEntryCount, "\(entries.count) entries")
    for entry in entries {
        precondition(entry.x >= 0 && entry.y >= 0 && (1...65_535).contains(entry.width) && (1...65_535).contains(entry.height))
        precondition(entry.pixelRatio > 0 && entry.pixelRatio <= 16)
        precondition(entry.stretchX.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= Double(entry.width) })
        precondition(entry.stretchY.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= Double(entry.height) })
        if let content = entry.content { precondition(content.count == 4 && content[0] <= content[2] && content[1] <= content[3]) }
    }
    return 0
}
