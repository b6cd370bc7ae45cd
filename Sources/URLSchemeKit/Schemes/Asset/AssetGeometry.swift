import Foundation

/// The sizes an `asset://` edit goes through, worked out from the stored
/// metadata before any pixel is decoded: what the output measures, and how
/// much detail the decode must keep to make it.
///
/// Sizes follow the edit order (crop, rotate, resize) at full resolution and
/// round as `Raster` does, so a photo decoded at a reduced scale still ends up
/// exactly as large as a full decode would have made it.
struct AssetGeometry {
    /// The largest output, in pixels (width × height).
    static let maximumPixelCount = 1 << 26

    /// Width and height after crop and rotation, before resizing.
    let edited: (width: Int, height: Int)
    /// Width and height of the result; nil keeps `edited`.
    let output: (width: Int, height: Int)?
    /// The smallest fraction of the original's sides the decode must keep
    /// (1 when the output is as large as the edited image or larger).
    let detail: Double

    init(_ asset: AssetURL, uprightWidth: Int, uprightHeight: Int) throws {
        var width = uprightWidth, height = uprightHeight
        if let crop = asset.crop {
            let x0 = Int((crop.x * Double(width)).rounded(.down)), x1 = min(width, Int(((crop.x + crop.width) * Double(width)).rounded(.up)))
            let y0 = Int((crop.y * Double(height)).rounded(.down)), y1 = min(height, Int(((crop.y + crop.height) * Double(height)).rounded(.up)))
            (width, height) = (max(1, x1 - x0), max(1, y1 - y0))
        }
        var turn = asset.rotate.truncatingRemainder(dividingBy: 360)
        if turn < 0 { turn += 360 }
        if turn == 90 || turn == 270 {
            (width, height) = (height, width)
        } else if turn != 0 && turn != 180 {
            let c = cos(turn * .pi / 180), s = sin(turn * .pi / 180)
            let w = Double(width), h = Double(height)
            (width, height) = (max(1, Int((abs(w * c) + abs(h * s) - 1e-9).rounded(.up))),
                               max(1, Int((abs(w * s) + abs(h * c) - 1e-9).rounded(.up))))
        }
        edited = (width, height)

        let w = Double(width), h = Double(height)
        let scale: Double
        switch (asset.width, asset.height) {
        case (nil, nil):
            output = nil
            detail = 1
            return
        case let (boxWidth?, nil):
            scale = Double(boxWidth) / w
            output = (boxWidth, max(1, Int((h * scale).rounded())))
        case let (nil, boxHeight?):
            scale = Double(boxHeight) / h
            output = (max(1, Int((w * scale).rounded())), boxHeight)
        case let (boxWidth?, boxHeight?):
            switch asset.mode {
            case .fit:
                scale = min(Double(boxWidth) / w, Double(boxHeight) / h)
                output = (max(1, min(boxWidth, Int((w * scale).rounded()))), max(1, min(boxHeight, Int((h * scale).rounded()))))
            case .fill, .stretch:
                scale = max(Double(boxWidth) / w, Double(boxHeight) / h)
                output = (boxWidth, boxHeight)
            }
        }
        if let output, output.width * output.height > Self.maximumPixelCount {
            throw URLParameterError(parameter: asset.width != nil ? "width" : "height",
                                    reason: "makes a \(output.width)×\(output.height) image; at most \(Self.maximumPixelCount) pixels are allowed")
        }
        detail = min(1, scale)
    }
}
