// Times VP8Decoder (internal, hence @testable and a build with
// -enable-testing) on a lossy WebP file: decode to Y′CbCr planes, then to
// RGBA. Prints one JSON object with the medians (wall and CPU seconds).
// Built and run by Scripts/bench_vp8/bench_vp8.sh.
import Foundation
@testable import ImageCodecs

func cpuSeconds() -> Double { Double(clock()) / Double(CLOCKS_PER_SEC) }
func wallSeconds() -> Double { Date().timeIntervalSinceReferenceDate }

let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
let iterations = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 7 : 7
// The RIFF walk of the tests: the first `VP8 ` chunk.
var position = 12
var chunk: [UInt8] = []
while position + 8 <= file.count {
    let size = Int(file[position + 4]) | Int(file[position + 5]) << 8 | Int(file[position + 6]) << 16 | Int(file[position + 7]) << 24
    if file[position..<position + 4].elementsEqual("VP8 ".utf8) { chunk = Array(file[(position + 8)..<(position + 8 + size)]); break }
    position += 8 + size + (size & 1)
}
precondition(!chunk.isEmpty, "no VP8 chunk")
var wall: [Double] = [], cpu: [Double] = []
for run in 0...iterations {
    let (w0, c0) = (wallSeconds(), cpuSeconds())
    let picture = try chunk.withUnsafeBytes { try VP8Decoder(maximumPixelCount: 1 << 28).decode($0, checkCancellation: {}) }
    let bitmap = try picture.rgbaBitmap()
    precondition(bitmap.width == picture.width)
    if run > 0 { wall.append(wallSeconds() - w0); cpu.append(cpuSeconds() - c0) }  // run 0 warms up
}
print("{\"wall\": \(wall.sorted()[wall.count / 2]), \"cpu\": \(cpu.sorted()[cpu.count / 2])}")
