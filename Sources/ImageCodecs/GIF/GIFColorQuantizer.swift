/// Picks a frame's palette and maps its pixels onto it.
///
/// A frame of at most the palette's size in distinct colours keeps them all
/// (exact, as most graphics and every frame of a GIF source are). More
/// colours are reduced by median cut (Heckbert's) over a histogram of 5 bits
/// per channel: the box with the most pixels times its widest side is split at
/// its weighted median along that side until there are enough boxes, and each
/// box's colour is the mean of the pixels in it. Each pixel takes its cell's
/// box (no search: what keeps a frame of many colours fast), or, dithered
/// (Floyd–Steinberg, which smooths gradients at the cost of LZW's runs), the
/// nearest entry to its colour plus the error carried to it, searched once
/// per cell the frame's own colours did not fill.
///
/// Colours are `UInt32`s as the canvas stores them: red in the low byte,
/// then green and blue; the alpha byte is ignored.
struct GIFColorQuantizer {
    /// The palette, at most the `maximumColors` it was made for.
    private(set) var palette: [UInt32] = []
    /// The exact palette's index of each colour, when the frame had few enough.
    private var exact: [UInt32: UInt8]?
    /// The palette entry of each 5-bit-per-channel cell, -1 for cells not yet
    /// known: after median cut, each filled cell's box.
    private var cells: [Int16] = []

    /// The palette for `colors` (the pixels a frame draws), of at most `maximumColors` (1…256).
    init(_ colors: UnsafeBufferPointer<UInt32>, maximumColors: Int) {
        var distinct: [UInt32: UInt8] = [:]
        for color in colors {
            let rgb = color & 0x00FF_FFFF
            if distinct[rgb] != nil { continue }
            guard distinct.count < maximumColors else { break }
            distinct[rgb] = UInt8(distinct.count)
        }
        // The loop stops early only on a colour past the limit; check there is none.
        if distinct.count < maximumColors || colors.allSatisfy({ distinct[$0 & 0x00FF_FFFF] != nil }) {
            palette = [UInt32](repeating: 0, count: distinct.count)
            for (color, index) in distinct { palette[Int(index)] = color }
            exact = distinct
        } else {
            (palette, cells) = Self.medianCut(colors, maximumColors: maximumColors)
        }
    }

    /// Whether every colour is in the palette as it is.
    var isExact: Bool { exact != nil }

    /// The palette index of each of `count` pixels in a `width`-wide block,
    /// written to `indices`; pixels where `drawn` is false are skipped (their
    /// index is the caller's). Dithering spreads each pixel's error to the
    /// drawn pixels right and below it.
    func map(_ pixels: UnsafeBufferPointer<UInt32>, drawn: UnsafeBufferPointer<Bool>, width: Int, dithers: Bool,
             into indices: UnsafeMutableBufferPointer<UInt8>) {
        if let exact {
            for i in pixels.indices where drawn[i] { indices[i] = exact[pixels[i] & 0x00FF_FFFF] ?? 0 }
            return
        }
        var nearest = cells
        func index(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
            let cell = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
            if nearest[cell] < 0 { nearest[cell] = Int16(closest(r, g, b)) }
            return UInt8(nearest[cell])
        }
        guard dithers, width > 0 else {
            for i in pixels.indices where drawn[i] {
                let p = pixels[i]
                indices[i] = index(Int(p & 0xFF), Int(p >> 8 & 0xFF), Int(p >> 16 & 0xFF))
            }
            return
        }
        // Errors of this row and the next, in 1/16ths, with a column of slack each side.
        var current = [Int32](repeating: 0, count: 3 * (width + 2)), below = current
        let rows = pixels.count / width
        for y in 0..<rows {
            for x in 0..<width where drawn[y * width + x] {
                let p = pixels[y * width + x], e = 3 * (x + 1)
                let r = min(255, max(0, Int(p & 0xFF) + Int(current[e] / 16)))
                let g = min(255, max(0, Int(p >> 8 & 0xFF) + Int(current[e + 1] / 16)))
                let b = min(255, max(0, Int(p >> 16 & 0xFF) + Int(current[e + 2] / 16)))
                let chosen = index(r, g, b)
                indices[y * width + x] = chosen
                let q = palette[Int(chosen)]
                func spread(_ c: Int, _ error: Int32) {
                    current[e + 3 + c] += error * 7
                    below[e - 3 + c] += error * 3
                    below[e + c] += error * 5
                    below[e + 3 + c] += error
                }
                spread(0, Int32(r) - Int32(q & 0xFF))
                spread(1, Int32(g) - Int32(q >> 8 & 0xFF))
                spread(2, Int32(b) - Int32(q >> 16 & 0xFF))
            }
            swap(&current, &below)
            for i in below.indices { below[i] = 0 }
        }
    }

    /// The palette entry nearest (r, g, b) by squared distance.
    private func closest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, color) in palette.enumerated() {
            let dr = r - Int(color & 0xFF), dg = g - Int(color >> 8 & 0xFF), db = b - Int(color >> 16 & 0xFF)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { (best, bestDistance) = (i, distance) }
        }
        return best
    }

    /// Median cut of `colors` into at most `maximumColors` means, and the
    /// entry (box) of each cell they fill (-1 for the cells they leave empty).
    private static func medianCut(_ colors: UnsafeBufferPointer<UInt32>, maximumColors: Int) -> (palette: [UInt32], cells: [Int16]) {
        // A cell of 5 bits per channel: its pixel count and channel sums.
        var counts = [Int](repeating: 0, count: 1 << 15), sums = [Int](repeating: 0, count: 3 << 15)
        for color in colors {
            let r = Int(color & 0xFF), g = Int(color >> 8 & 0xFF), b = Int(color >> 16 & 0xFF)
            let cell = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
            counts[cell] += 1
            sums[3 * cell] += r
            sums[3 * cell + 1] += g
            sums[3 * cell + 2] += b
        }
        var cells = counts.indices.filter { counts[$0] > 0 }
        func channel(_ cell: Int, _ c: Int) -> Int { cell >> (10 - 5 * c) & 31 }
        struct Box { var lower: Int, upper: Int, pixels: Int, widest: Int, span: Int }
        func box(_ lower: Int, _ upper: Int) -> Box {
            var low = [31, 31, 31], high = [0, 0, 0], pixels = 0
            for cell in cells[lower..<upper] {
                pixels += counts[cell]
                for c in 0..<3 { low[c] = min(low[c], channel(cell, c)); high[c] = max(high[c], channel(cell, c)) }
            }
            let spans = (0..<3).map { high[$0] - low[$0] }
            let widest = spans.firstIndex(of: spans.max()!)!
            return Box(lower: lower, upper: upper, pixels: pixels, widest: widest, span: spans[widest])
        }
        var boxes = [box(0, cells.count)]
        while boxes.count < maximumColors {
            guard let pick = boxes.indices.filter({ boxes[$0].upper - boxes[$0].lower > 1 })
                .max(by: { boxes[$0].pixels * boxes[$0].span < boxes[$1].pixels * boxes[$1].span }) else { break }
            let chosen = boxes[pick], c = chosen.widest
            cells[chosen.lower..<chosen.upper].sort { channel($0, c) < channel($1, c) }
            var seen = 0, split = chosen.lower + 1
            for position in chosen.lower..<chosen.upper - 1 {
                seen += counts[cells[position]]
                split = position + 1
                if 2 * seen >= chosen.pixels { break }
            }
            boxes[pick] = box(chosen.lower, split)
            boxes.append(box(split, chosen.upper))
        }
        var entries = [Int16](repeating: -1, count: 1 << 15)
        for (index, box) in boxes.enumerated() {
            for cell in cells[box.lower..<box.upper] { entries[cell] = Int16(index) }
        }
        let palette = boxes.map { box -> UInt32 in
            var total = [0, 0, 0], pixels = 0
            for cell in cells[box.lower..<box.upper] {
                pixels += counts[cell]
                for c in 0..<3 { total[c] += sums[3 * cell + c] }
            }
            let mean = total.map { UInt32(($0 + pixels / 2) / max(1, pixels)) }
            return mean[0] | mean[1] << 8 | mean[2] << 16
        }
        return (palette, entries)
    }
}
