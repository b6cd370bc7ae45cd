"""Reference side of `urlscheme-bench map`: pycairo fills and strokes the same
projected basemap geometry (exported by the Swift side) at the same size, in
the same layers: water, land (non-zero), countries by class (even-odd),
region borders stroked, lakes (even-odd, in the water colour), country borders,
then coastlines and lake shores stroked, with round joins."""
import json

from common import emit, median_seconds, parser

p = parser(__doc__)
p.add_argument("geometry")
args = p.parse_args()
g = json.load(open(args.geometry))
rows = {}
try:
    import cairo

    def polyline(ctx, flat, close):
        ctx.move_to(flat[0], flat[1])
        for i in range(2, len(flat), 2):
            ctx.line_to(flat[i], flat[i + 1])
        if close:
            ctx.close_path()

    def color(ctx, c):
        ctx.set_source_rgba(c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)

    def draw():
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, g["width"], g["height"])
        ctx = cairo.Context(surface)
        color(ctx, g["water"])
        ctx.paint()
        ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
        for ring in g["land"]:
            polyline(ctx, ring, True)
        color(ctx, g["landColor"])
        ctx.fill()
        ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)  # also for the lakes below
        for rings, c in zip(g["classes"], g["classColors"]):
            for ring in rings:
                polyline(ctx, ring, True)
            color(ctx, c)
            ctx.fill()
        ctx.set_line_join(cairo.LINE_JOIN_ROUND)
        ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        ctx.set_line_width(0.5 * g["scale"])
        for line in g["regionBorders"]:
            polyline(ctx, line, False)
        color(ctx, g["regionBorderColor"])
        ctx.stroke()
        for ring in g["lakes"]:
            polyline(ctx, ring, True)
        color(ctx, g["water"])
        ctx.fill()
        ctx.set_line_width(0.6 * g["scale"])
        for ring in g["borders"]:
            polyline(ctx, ring, True)
        color(ctx, g["borderColor"])
        ctx.stroke()
        ctx.set_line_width(0.8 * g["scale"])
        for line in g["coastlines"]:
            polyline(ctx, line, False)
        for ring in g["lakes"]:
            polyline(ctx, ring, True)
        color(ctx, g["coastColor"])
        ctx.stroke()
        surface.flush()

    rows["pycairo"] = {"seconds": median_seconds(draw, args.iterations), "label": "pycairo (cairo %s)" % cairo.cairo_version_string()}
except ImportError:
    pass
emit(rows)
