import Raster

/// An icon's box about its point and the quads it is drawn with, as MapLibre's
/// `shapeIcon`, `fitIconToText` and `getIconQuads` make them: the image's
/// display box (or, with `icon-text-fit`, the text's box grown by the fit
/// padding), cut along the sprite's `stretchX`/`stretchY` ranges so only those
/// parts stretch while the rest keeps its pixel size.
struct IconQuads {
    /// The icon's box about the point in CSS pixels at `icon-size` 1
    /// (MapLibre's `PositionedIcon` top, right, bottom, left).
    var left: Double, top: Double, right: Double, bottom: Double
    /// With `icon-text-fit` and the image's `content`: what the collision box
    /// reaches past the box (left, top, right, bottom, CSS pixels).
    var collisionPadding: (left: Double, top: Double, right: Double, bottom: Double)?

    /// One quad: a part of the image drawn over a rectangle about the point.
    struct Quad {
        /// The rectangle's corners in CSS pixels: `em` scales with the icon
        /// size (at least `minimumScale`), `pixels` does not.
        var emTopLeft: Point, emBottomRight: Point
        var pixelsTopLeft: Point, pixelsBottomRight: Point
        /// The smallest scale of the `em` part that keeps the fixed parts whole, per axis.
        var minimumScale: Point
        /// The part of the image, in image pixels (one pixel of border around the image included at its edges).
        var texX: Double, texY: Double, texWidth: Double, texHeight: Double

        /// The rectangle's top-left and bottom-right corners about the point at `size`, in CSS pixels.
        func corners(size: Double) -> (topLeft: Point, bottomRight: Point) {
            let sx = max(minimumScale.x, size), sy = max(minimumScale.y, size)
            return (Point(emTopLeft.x * sx + pixelsTopLeft.x, emTopLeft.y * sy + pixelsTopLeft.y),
                    Point(emBottomRight.x * sx + pixelsBottomRight.x, emBottomRight.y * sy + pixelsBottomRight.y))
        }
    }

    /// `image`'s box placed at its `icon-anchor` and moved by `icon-offset` (MapLibre's `shapeIcon`).
    init(_ image: SpriteImage, offset: [Double], anchor: StyleIconAnchor) {
        let alignment = anchor.alignment
        left = offset[0] - image.displayWidth * alignment.x
        top = offset[1] - image.displayHeight * alignment.y
        right = left + image.displayWidth
        bottom = top + image.displayHeight
    }

    /// The box fitted around `text` (shaped at 24 px, `fontScale` its
    /// layout size over 24) as `fit` asks, `padding` (top, right, bottom,
    /// left) around it, moved by `offset` (MapLibre's `fitIconToText`): the
    /// icon is centred on the text along an axis it is not stretched in.
    mutating func fit(_ image: SpriteImage, to text: ShapedText, _ fit: StyleIconTextFit, padding: [Double], offset: [Double], fontScale: Double) {
        guard fit != .none else { return }
        if let content = image.content {
            collisionPadding = (content[0] / image.pixelRatio, content[1] / image.pixelRatio,
                                image.displayWidth - content[2] / image.pixelRatio, image.displayHeight - content[3] / image.pixelRatio)
        }
        let textLeft = text.left * fontScale, textRight = text.right * fontScale
        if fit == .width || fit == .both {
            left = offset[0] + textLeft - padding[3]
            right = offset[0] + textRight + padding[1]
        } else {
            left = offset[0] + (textLeft + textRight - image.displayWidth) / 2
            right = left + image.displayWidth
        }
        let textTop = text.top * fontScale, textBottom = text.bottom * fontScale
        if fit == .height || fit == .both {
            top = offset[1] + textTop - padding[0]
            bottom = offset[1] + textBottom + padding[2]
        } else {
            top = offset[1] + (textTop + textBottom - image.displayHeight) / 2
            bottom = top + image.displayHeight
        }
    }

    /// The quads `image` is drawn with over this box (MapLibre's
    /// `getIconQuads`): one for the whole image, or with `stretched` (icon-text-fit on) and
    /// stretch ranges, one per cell between the cuts at the ranges' ends.
    func quads(_ image: SpriteImage, stretched: Bool) -> [Quad] {
        let imageWidth = Double(image.width), imageHeight = Double(image.height)
        let stretchX = image.stretchX.isEmpty ? [0...imageWidth] : image.stretchX
        let stretchY = image.stretchY.isEmpty ? [0...imageHeight] : image.stretchY
        let stretchWidth = stretchX.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let stretchHeight = stretchY.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let fixedWidth = imageWidth - stretchWidth, fixedHeight = imageHeight - stretchHeight
        var stretchOffset = Point(0, 0), stretchContent = Point(stretchWidth, stretchHeight)
        var fixedOffset = Point(0, 0), fixedContent = Point(fixedWidth, fixedHeight)
        if stretched, let content = image.content {
            stretchOffset = Point(Self.sum(stretchX, 0, content[0]), Self.sum(stretchY, 0, content[1]))
            stretchContent = Point(Self.sum(stretchX, content[0], content[2]), Self.sum(stretchY, content[1], content[3]))
            fixedOffset = Point(content[0] - stretchOffset.x, content[1] - stretchOffset.y)
            fixedContent = Point(content[2] - content[0] - stretchContent.x, content[3] - content[1] - stretchContent.y)
        }
        var iconLeft = left, iconTop = top
        var iconWidth = right - left, iconHeight = bottom - top
        if stretched, let content = image.content {
            (iconLeft, iconTop, iconWidth, iconHeight) = Self.keptInProportion(image, content, iconLeft, iconTop, iconWidth, iconHeight)
        }
        let ratio = image.pixelRatio
        func quad(_ x1: Cut, _ y1: Cut, _ x2: Cut, _ y2: Cut) -> Quad {
            func em(_ stretch: Double, _ offset: Double, _ size: Double, _ iconSize: Double, _ iconStart: Double) -> Double {
                size == 0 ? iconStart : (stretch - offset) / size * iconSize + iconStart
            }
            func px(_ fixed: Double, _ offset: Double, _ size: Double, _ stretch: Double, _ stretchSize: Double) -> Double {
                stretchSize == 0 ? fixed - offset : fixed - offset - size * stretch / stretchSize
            }
            let left = em(x1.stretch, stretchOffset.x, stretchContent.x, iconWidth, iconLeft)
            let top = em(y1.stretch, stretchOffset.y, stretchContent.y, iconHeight, iconTop)
            let right = em(x2.stretch, stretchOffset.x, stretchContent.x, iconWidth, iconLeft)
            let bottom = em(y2.stretch, stretchOffset.y, stretchContent.y, iconHeight, iconTop)
            let x0 = x1.stretch + x1.fixed, y0 = y1.stretch + y1.fixed
            return Quad(emTopLeft: Point(left, top), emBottomRight: Point(right, bottom),
                        pixelsTopLeft: Point(px(x1.fixed, fixedOffset.x, fixedContent.x, x1.stretch, stretchWidth) / ratio,
                                             px(y1.fixed, fixedOffset.y, fixedContent.y, y1.stretch, stretchHeight) / ratio),
                        pixelsBottomRight: Point(px(x2.fixed, fixedOffset.x, fixedContent.x, x2.stretch, stretchWidth) / ratio,
                                                 px(y2.fixed, fixedOffset.y, fixedContent.y, y2.stretch, stretchHeight) / ratio),
                        minimumScale: Point(iconWidth > 0 ? fixedContent.x / ratio / iconWidth : 0,
                                            iconHeight > 0 ? fixedContent.y / ratio / iconHeight : 0),
                        texX: x0, texY: y0, texWidth: x2.stretch + x2.fixed - x0, texHeight: y2.stretch + y2.fixed - y0)
        }
        guard stretched, !image.stretchX.isEmpty || !image.stretchY.isEmpty else {
            return [quad(Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: -1),
                         Cut(fixed: 0, stretch: imageWidth + 1), Cut(fixed: 0, stretch: imageHeight + 1))]
        }
        let xCuts = Self.cuts(stretchX, fixed: fixedWidth, stretch: stretchWidth)
        let yCuts = Self.cuts(stretchY, fixed: fixedHeight, stretch: stretchHeight)
        var quads: [Quad] = []
        for xi in 0..<(xCuts.count - 1) {
            for yi in 0..<(yCuts.count - 1) {
                quads.append(quad(xCuts[xi], yCuts[yi], xCuts[xi + 1], yCuts[yi + 1]))
            }
        }
        return quads
    }

    /// The box widened or heightened to the content's aspect ratio where the
    /// image's `textFitWidth`/`textFitHeight` ask for it (MapLibre's `applyTextFit`):
    /// a proportional height wins over a proportional width.
    private static func keptInProportion(_ image: SpriteImage, _ content: [Double], _ left: Double, _ top: Double,
                                         _ width: Double, _ height: Double) -> (Double, Double, Double, Double) {
        let contentWidth = content[2] - content[0], contentHeight = content[3] - content[1]
        guard contentHeight > 0, width > 0, height > 0 else { return (left, top, width, height) }
        let aspect = contentWidth / contentHeight
        if image.textFitHeight == .proportional {
            if image.textFitWidth == .proportional || image.textFitWidth == .stretchOnly && width / height < aspect {
                let wider = (height * aspect).rounded(.up)
                return (left * wider / width, top, wider, height)
            }
        } else if image.textFitWidth == .proportional, image.textFitHeight == .stretchOnly, aspect != 0, width / height > aspect {
            let taller = (width / aspect).rounded(.up)
            return (left, top * taller / height, width, taller)
        }
        return (left, top, width, height)
    }

    /// A cut across the image: image pixels before it that are fixed, and that stretch.
    private struct Cut {
        var fixed: Double
        var stretch: Double
    }

    /// The cuts at each stretch range's ends, with a pixel of border at both
    /// ends of the image (MapLibre's `stretchZonesToCuts`).
    private static func cuts(_ zones: [ClosedRange<Double>], fixed: Double, stretch: Double) -> [Cut] {
        var cuts = [Cut(fixed: -1, stretch: 0)]
        for zone in zones {
            let last = cuts[cuts.count - 1]
            cuts.append(Cut(fixed: zone.lowerBound - last.stretch, stretch: last.stretch))
            cuts.append(Cut(fixed: zone.lowerBound - last.stretch, stretch: last.stretch + zone.upperBound - zone.lowerBound))
        }
        cuts.append(Cut(fixed: fixed + 1, stretch: stretch))
        return cuts
    }

    /// How much of `ranges` lies between `low` and `high` (MapLibre's `sumWithinRange`).
    private static func sum(_ ranges: [ClosedRange<Double>], _ low: Double, _ high: Double) -> Double {
        ranges.reduce(0) { $0 + max(low, min(high, $1.upperBound)) - max(low, min(high, $1.lowerBound)) }
    }
}
