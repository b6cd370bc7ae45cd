import Foundation
import XCTest
import Raster

/// Checks our encoders' output with an independent decoder: python3's zlib
/// (the C library), which is on every machine this package is built on.
/// Until the package has its own inflate, this is what proves a stream valid.
enum IndependentDecoder {
    /// Decodes 8-bit non-interlaced PNG files with a reader written in Python's
    /// standard library (chunk CRCs via zlib.crc32, zlib for the data, the five
    /// filters undone by hand): for each file, its RGBA bytes and size, or nil.
    static func pngDecode(_ files: [Data]) throws -> [(width: Int, height: Int, rgba: [UInt8])?] {
        let script = """
            import sys, zlib, struct, os
            d = sys.argv[1]
            def paeth(a, b, c):
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            for i in range(int(sys.argv[2])):
                try:
                    data = open(os.path.join(d, f"{i}.png"), "rb").read()
                    assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "signature"
                    pos, idat, header = 8, b"", None
                    while pos < len(data):
                        (length,) = struct.unpack(">I", data[pos:pos + 4]); kind = data[pos + 4:pos + 8]
                        body = data[pos + 8:pos + 8 + length]
                        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
                        assert zlib.crc32(kind + body) == crc, "crc"
                        if kind == b"IHDR": header = struct.unpack(">IIBBBBB", body)
                        if kind == b"IDAT": idat += body
                        pos += 12 + length
                        if kind == b"IEND": break
                    w, h, depth, ctype, _, _, interlace = header
                    assert depth == 8 and interlace == 0, "unsupported"
                    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
                    raw = zlib.decompress(idat); stride = w * ch; out = bytearray(); prev = bytearray(stride)
                    for y in range(h):
                        f = raw[y * (stride + 1)]; row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
                        for x in range(stride):
                            a = row[x - ch] if x >= ch else 0; b = prev[x]; c = prev[x - ch] if x >= ch else 0
                            row[x] = (row[x] + [0, a, b, (a + b) // 2, paeth(a, b, c)][f]) & 255
                        for x in range(w):
                            px = row[x * ch:(x + 1) * ch]
                            out += {1: lambda p: p * 3 + b"\\xff", 2: lambda p: p[:1] * 3 + p[1:], 3: lambda p: p + b"\\xff", 4: lambda p: p}[ch](bytes(px))
                        prev = row
                    open(os.path.join(d, f"{i}.rgba"), "wb").write(struct.pack(">II", w, h) + bytes(out))
                except Exception as e:
                    sys.stderr.write(f"{i}: {e!r}\\n")
            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("png-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, file) in files.enumerated() { try file.write(to: directory.appendingPathComponent("\(i).png")) }
        try runPython(script, arguments: [directory.path, String(files.count)])
        return files.indices.map { i in
            guard let data = try? Data(contentsOf: directory.appendingPathComponent("\(i).rgba")), data.count >= 8 else { return nil }
            let bytes = Array(data)
            let w = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }, h = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
            return (w, h, Array(bytes[8...]))
        }
    }

    /// zlib streams of each input at each level, made by python3's zlib
    /// (input-major: input 0 at every level, then input 1, …).
    static func zlibCompress(_ inputs: [[UInt8]], levels: [Int]) throws -> [[UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deflate-make-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, input) in inputs.enumerated() { try Data(input).write(to: directory.appendingPathComponent("\(i).raw")) }
        let script = """
            import sys, zlib, os
            d, n, levels = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split(",")]
            for i in range(n):
                raw = open(os.path.join(d, f"{i}.raw"), "rb").read()
                for level in levels:
                    open(os.path.join(d, f"{i}-{level}.z"), "wb").write(zlib.compress(raw, level))
            """
        try runPython(script, arguments: [directory.path, String(inputs.count), levels.map(String.init).joined(separator: ",")])
        return try inputs.indices.flatMap { i in
            try levels.map { Array(try Data(contentsOf: directory.appendingPathComponent("\(i)-\($0).z"))) }
        }
    }

    /// gzip members made by python3's `gzip` module at `level`, with a file
    /// name in the header (FNAME) so the optional header fields are exercised.
    static func gzipCompress(_ inputs: [[UInt8]], level: Int) throws -> [[UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-make-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, input) in inputs.enumerated() { try Data(input).write(to: directory.appendingPathComponent("\(i).raw")) }
        let script = """
            import sys, gzip, os
            d, n, level = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            for i in range(n):
                raw = open(os.path.join(d, f"{i}.raw"), "rb").read()
                with open(os.path.join(d, f"{i}.gz"), "wb") as out:
                    with gzip.GzipFile(filename=f"sample-{i}.bin", mode="wb", compresslevel=level, fileobj=out, mtime=0) as g:
                        g.write(raw)
            """
        try runPython(script, arguments: [directory.path, String(inputs.count), String(level)])
        return try inputs.indices.map { Array(try Data(contentsOf: directory.appendingPathComponent("\($0).gz"))) }
    }

    /// Decodes JPEG files with Pillow (libjpeg-turbo) when python3 has it:
    /// for each file its pixels (opaque RGBA) and ICC profile, or nil where
    /// Pillow refuses it. Returns [] when Pillow is not installed, so callers
    /// check against it only where it exists.
    static func pillowDecodeJPEG(_ files: [Data]) throws -> [(width: Int, height: Int, bitmap: Bitmap, iccProfile: Data?)?] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, file) in files.enumerated() { try file.write(to: directory.appendingPathComponent("\(i).jpg")) }
        let script = """
            import sys, os, struct
            try:
                from PIL import Image
            except ImportError:
                open(os.path.join(sys.argv[1], "no-pillow"), "w").close(); sys.exit(0)
            d = sys.argv[1]
            for i in range(int(sys.argv[2])):
                try:
                    im = Image.open(os.path.join(d, f"{i}.jpg")); im.load()
                    rgba = im.convert("RGBA")
                    open(os.path.join(d, f"{i}.rgba"), "wb").write(struct.pack(">II", *rgba.size) + rgba.tobytes())
                    icc = im.info.get("icc_profile")
                    if icc is not None: open(os.path.join(d, f"{i}.icc"), "wb").write(icc)
                except Exception as e:
                    sys.stderr.write(f"{i}: {e!r}\\n")
            """
        try runPython(script, arguments: [directory.path, String(files.count)])
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("no-pillow").path) { return [] }
        return try files.indices.map { i in
            guard let data = try? Data(contentsOf: directory.appendingPathComponent("\(i).rgba")), data.count >= 8 else { return nil }
            let bytes = Array(data)
            let w = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }, h = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
            let icc = try? Data(contentsOf: directory.appendingPathComponent("\(i).icc"))
            return (w, h, try Bitmap(width: w, height: h, rgba: Array(bytes[8...])), icc)
        }
    }

    private static func runPython(_ script: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        try process.run()
        process.waitUntilExit()
    }

    /// For each zlib stream, the bytes zlib decompresses it to (nil where zlib refuses it).
    static func zlibDecompress(_ streams: [[UInt8]]) throws -> [[UInt8]?] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deflate-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, stream) in streams.enumerated() {
            try Data(stream).write(to: directory.appendingPathComponent("\(i).z"))
        }
        let script = """
            import sys, zlib, os
            d = sys.argv[1]
            for i in range(int(sys.argv[2])):
                try:
                    out = zlib.decompress(open(os.path.join(d, f"{i}.z"), "rb").read())
                    open(os.path.join(d, f"{i}.out"), "wb").write(out)
                except zlib.error as e:
                    sys.stderr.write(f"{i}: {e}\\n")
            """
        try runPython(script, arguments: [directory.path, String(streams.count)])
        return streams.indices.map { i in
            (try? Data(contentsOf: directory.appendingPathComponent("\(i).out"))).map(Array.init)
        }
    }
}
