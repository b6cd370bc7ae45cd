"""Reference side of `urlscheme-bench raster`: the same scene (read from the
JSON the Swift side wrote) drawn anti-aliased by aggdraw (AGG), and by pycairo
when it is installed."""
import json

from common import emit, median_seconds, parser

p = parser(__doc__)
p.add_argument("scene")
args = p.parse_args()
scene = json.load(open(args.scene))
rows = {}

try:
    import aggdraw
    from PIL import Image

    def draw_agg():
        image = Image.new("RGBA", (1024, 1024), "white")
        d = aggdraw.Draw(image)
        for points, c in zip(scene["polygons"], scene["polygonColors"]):
            d.polygon(points, aggdraw.Brush(tuple(c[:3]), c[3]))
        for points, c in zip(scene["lines"], scene["lineColors"]):
            d.line(points, aggdraw.Pen(tuple(c[:3]), 3, c[3]))
        d.flush()

    rows["aggdraw"] = {"seconds": median_seconds(draw_agg, args.iterations), "label": "aggdraw %s" % getattr(aggdraw, "VERSION", "")}
except ImportError:
    pass

try:
    import cairo

    def draw_cairo():
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 1024, 1024)
        ctx = cairo.Context(surface)
        ctx.set_source_rgb(1, 1, 1)
        ctx.paint()
        for points, c in zip(scene["polygons"], scene["polygonColors"]):
            ctx.move_to(points[0], points[1])
            for i in range(2, len(points), 2):
                ctx.line_to(points[i], points[i + 1])
            ctx.close_path()
            ctx.set_source_rgba(c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)
            ctx.fill()
        ctx.set_line_width(3)
        for points, c in zip(scene["lines"], scene["lineColors"]):
            ctx.move_to(points[0], points[1])
            for i in range(2, len(points), 2):
                ctx.line_to(points[i], points[i + 1])
            ctx.set_source_rgba(c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)
            ctx.stroke()
        surface.flush()

    rows["pycairo"] = {"seconds": median_seconds(draw_cairo, args.iterations), "label": "pycairo (cairo %s)" % cairo.cairo_version_string()}
except ImportError:
    pass

emit(rows)
