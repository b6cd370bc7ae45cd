"""Reference side of `urlscheme-bench raster`: Pillow resize and blur, and the
vector scene drawn with aggdraw (AGG, anti-aliased) and pycairo when installed.

Arguments: the photo as raw RGBA (from BenchmarkContext.rawFile) and the scene
file RasterBenchmarks writes (little-endian float64 x, y: 2000 polygons × 50
points, then 500 polylines × 20 points). Colours follow RasterBenchmarks.Scene.colour.
"""
import struct

from common import emit, load_rgba, median_seconds, parser

POLYGONS, POLYGON_POINTS, POLYLINES, POLYLINE_POINTS, SIZE = 2000, 50, 500, 20, 1024


def colour(i):
    return (i * 37 % 256, i * 91 % 256, i * 53 % 256)


def load_scene(path):
    with open(path, "rb") as f:
        data = f.read()
    values = struct.unpack("<%dd" % (len(data) // 8), data)
    shapes, k = [], 0
    for count, points in ((POLYGONS, POLYGON_POINTS), (POLYLINES, POLYLINE_POINTS)):
        group = []
        for _ in range(count):
            group.append(list(values[k:k + 2 * points]))
            k += 2 * points
        shapes.append(group)
    return shapes


def main():
    p = parser(__doc__)
    p.add_argument("photo")
    p.add_argument("scene")
    args = p.parse_args()
    import PIL
    from PIL import Image, ImageFilter
    photo = load_rgba(args.photo)
    pillow = "Pillow %s" % PIL.__version__
    rows = {
        "resize": {"seconds": median_seconds(lambda: photo.resize((480, 320), Image.LANCZOS), args.iterations),
                   "label": pillow},
        "blur": {"seconds": median_seconds(lambda: photo.filter(ImageFilter.GaussianBlur(2)), args.iterations),
                 "label": pillow},
    }
    polygons, polylines = load_scene(args.scene)
    try:
        import aggdraw

        def draw_agg():
            image = Image.new("RGBA", (SIZE, SIZE), (255, 255, 255, 255))
            d = aggdraw.Draw(image)
            d.setantialias(True)
            for i, poly in enumerate(polygons):
                d.polygon(poly, aggdraw.Brush(colour(i)))
            for i, line in enumerate(polylines):
                d.line(line, aggdraw.Pen(colour(i + 7), 3))
            d.flush()
        rows["aggdraw"] = {"seconds": median_seconds(draw_agg, args.iterations),
                           "label": "aggdraw %s" % getattr(aggdraw, "VERSION", "")}
    except ImportError:
        pass
    try:
        import cairo

        def draw_cairo():
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, SIZE, SIZE)
            ctx = cairo.Context(surface)
            ctx.set_source_rgb(1, 1, 1)
            ctx.paint()
            for i, poly in enumerate(polygons):
                r, g, b = colour(i)
                ctx.set_source_rgb(r / 255, g / 255, b / 255)
                ctx.move_to(poly[0], poly[1])
                for j in range(2, len(poly), 2):
                    ctx.line_to(poly[j], poly[j + 1])
                ctx.close_path()
                ctx.fill()
            ctx.set_line_width(3)
            ctx.set_line_join(cairo.LINE_JOIN_MITER)
            for i, line in enumerate(polylines):
                r, g, b = colour(i + 7)
                ctx.set_source_rgb(r / 255, g / 255, b / 255)
                ctx.move_to(line[0], line[1])
                for j in range(2, len(line), 2):
                    ctx.line_to(line[j], line[j + 1])
                ctx.stroke()
            surface.flush()
        rows["cairo"] = {"seconds": median_seconds(draw_cairo, args.iterations),
                         "label": "pycairo %s" % cairo.version}
    except ImportError:
        pass
    emit(rows)


main()
