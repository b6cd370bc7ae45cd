"""Reference side of urlscheme-bench's `stylemap` suite: MapLibre Native
through PyPI `pymgl` on Mesa's software OpenGL (EGL_PLATFORM=surfaceless)
drawing a whole style document (the same file our side draws: GeoJSON inline,
raster-dem tiles by file:// URL, glyphs and sprites by file:// URL), 512×512 at
the style's own center and zoom. `--source NAME=URL` points a vector source at
what Native reads (`mbtiles://PATH` where ours reads the `.pmtiles`).

- cold: a new map (style parsed, sources read, clustered, tiled) and its PNG;
- warm: the same map rendered again, as raw pixels.

  apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libopengl0; pip install pymgl
  python3 Benchmarks/reference/style_map.py --iterations 7 --style STYLE.json --key geojson
"""
import json
import os

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import pymgl

from common import emit, median_seconds, parser


def main():
    p = parser(__doc__)
    p.add_argument("--style", required=True)
    p.add_argument("--key", required=True, help="the row key prefix: KEY-cold, KEY-warm")
    p.add_argument("--png", help="also write one cold PNG here (to compare by eye)")
    p.add_argument("--source", action="append", default=[], help="NAME=URL: that source's url")
    args = p.parse_args()
    style = json.load(open(args.style))
    for assignment in args.source:
        name, url = assignment.split("=", 1)
        style["sources"][name] = dict(style["sources"][name], url=url)
    text = json.dumps(style)
    lon, lat = style["center"]
    zoom = style["zoom"]
    label = "MapLibre Native (pymgl %s, Mesa)" % getattr(pymgl, "__version__", "0.5")
    if args.png:
        with open(args.png, "wb") as f:
            f.write(pymgl.Map(text, 512, 512, 1, lon, lat, zoom).renderPNG())
    cold = median_seconds(lambda: pymgl.Map(text, 512, 512, 1, lon, lat, zoom).renderPNG(), args.iterations)
    warm_map = pymgl.Map(text, 512, 512, 1, lon, lat, zoom)
    warm = median_seconds(lambda: warm_map.renderBuffer(), args.iterations)
    del warm_map
    emit({args.key + "-cold": {"seconds": cold, "label": label},
          args.key + "-warm": {"seconds": warm, "label": label}})


if __name__ == "__main__":
    main()
