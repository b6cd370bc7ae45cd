import Foundation
import URLSchemeKit

/// `urlscheme glyphs FONT.ttf OUT [--name NAME] [--ranges FIRST-LAST]`:
/// MapLibre glyph ranges made from a TrueType font (what fontnik's
/// `build-glyphs` makes), written as `OUT/NAME/{start}-{end}.pbf` for a
/// style's `"glyphs": ".../{fontstack}/{range}.pbf"`.
enum GlyphsCommand {
    static let usage = """
        urlscheme glyphs FONT.ttf OUT [--name NAME] [--ranges FIRST-LAST]
        """

    /// The largest font file read: real fonts are under 20 MB, CJK ones included.
    static let maximumFontBytes = 64 << 20

    /// Runs the command with `arguments` (those after `glyphs`); exits.
    static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var operands: [String] = []
        var name: String?
        var codePoints: ClosedRange<UInt32> = 0...0xFFFF  // MapLibre asks for ranges of the Basic Multilingual Plane only
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--name":
                guard !arguments.isEmpty else { fail("--name needs a value", code: 2) }
                name = arguments.removeFirst()
            case "--ranges":
                guard !arguments.isEmpty else { fail("--ranges needs a value", code: 2) }
                let text = arguments.removeFirst()
                let parts = text.split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count == 2, let first = UInt32(parts[0]), let last = UInt32(parts[1]), first <= last, last <= 0xFFFF else {
                    fail("--ranges \(text): expected FIRST-LAST, code points from 0 to 65535 (e.g. 0-255 or 0-1279)", code: 2)
                }
                codePoints = first...last
            case _ where argument.hasPrefix("-"): fail("unexpected option '\(argument)' for 'glyphs'; usage: \(usage)", code: 2)
            default: operands.append(argument)
            }
        }
        guard operands.count == 2 else { fail("expected FONT.ttf and an output folder; usage: \(usage)", code: 2) }
        let (fontPath, outPath) = (operands[0], operands[1])
        let started = Date()
        let font: TrueTypeFont
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: fontPath)
            let size = (attributes[.size] as? Int) ?? 0
            guard size <= maximumFontBytes else { fail("\(fontPath): \(size) bytes, over the limit of \(maximumFontBytes) for a font") }
            font = try TrueTypeFont(bytes: Array(Data(contentsOf: URL(fileURLWithPath: fontPath))))
        } catch let error as TrueTypeError {
            fail("\(fontPath): not a TrueType font we read: \(error)")
        } catch {
            fail("\(fontPath): no such file or not readable")
        }
        guard let stack = name ?? font.fullName else {
            fail("\(fontPath): the font has no family name; give --name NAME (the font stack styles will ask for)", code: 2)
        }
        guard !stack.isEmpty, !stack.contains("/"), stack != ".", stack != "..", !stack.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            fail("--name '\(stack)': a font stack name is a folder name: no '/', no control characters", code: 2)
        }
        let writer = GlyphRangeWriter(font: font, fontStackName: stack)
        let folder = URL(fileURLWithPath: outPath, isDirectory: true).appendingPathComponent(stack, isDirectory: true)
        var files = 0, glyphs = 0
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for start in writer.rangeStarts where codePoints.overlaps(start...(start + GlyphRange.size - 1)) {
                guard let data = try writer.rangeData(start: start) else { continue }
                try data.write(to: folder.appendingPathComponent(GlyphRange.name(start: start) + ".pbf"), options: .atomic)
                files += 1
                glyphs += try GlyphRange(data: data, start: start).glyphs.count
            }
        } catch let error as GlyphRangeError {
            fail("\(fontPath): \(error)")
        } catch let error as TrueTypeError {
            fail("\(fontPath): \(error)")
        } catch {
            fail("\(folder.path): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data(String(format: "urlscheme: %d glyph ranges, %d glyphs of '%@' in %@ (%.1f s)\n", files, glyphs, stack, folder.path,
                                                   Date().timeIntervalSince(started)).utf8))
        exit(files > 0 ? 0 : 1)
    }
}
