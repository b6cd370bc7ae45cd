"""Reference side of urlscheme-bench's `vectormap` suite: MapLibre Native
through PyPI `pymgl` on Mesa's software OpenGL (EGL_PLATFORM=surfaceless),
drawing the same label-free style from the `.mbtiles` the archive was packed
from, 512×512 at MapLibre zoom 14 (our 15) over 60.170 N, 24.945 E.

- cold: a new map (style parsed, tiles read and parsed) and its PNG;
- warm: the same map rendered again (tiles already parsed), as raw pixels;
- cold@2x, warm@2x: the same at pixel ratio 2 (a 1024×1024-pixel image).

  apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libopengl0; pip install pymgl
  python3 Benchmarks/reference/vector_map.py --iterations 7 --style STYLE.json --mbtiles FILE.mbtiles
"""
import json
import os

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import pymgl

from common import emit, median_seconds, parser


def main():
    p = parser(__doc__)
    p.add_argument("--style", required=True)
    p.add_argument("--mbtiles", required=True)
    args = p.parse_args()
    style = json.load(open(args.style))
    (name, source), = style["sources"].items()
    style["sources"][name] = dict(source, url="mbtiles://" + os.path.abspath(args.mbtiles))
    text = json.dumps(style)
    label = "MapLibre Native (pymgl %s, Mesa)" % getattr(pymgl, "__version__", "0.5")
    rows = {}
    for ratio, suffix in ((1, ""), (2, "@2x")):
        cold = median_seconds(lambda: pymgl.Map(text, 512, 512, ratio, 24.945, 60.170, 14).renderPNG(), args.iterations)
        warm_map = pymgl.Map(text, 512, 512, ratio, 24.945, 60.170, 14)
        warm = median_seconds(lambda: warm_map.renderBuffer(), args.iterations)
        rows["cold" + suffix] = {"seconds": cold, "label": label}
        rows["warm" + suffix] = {"seconds": warm, "label": label}
        # pymgl crashes making a map while another lives on: one map at a time.
        del warm_map
    emit(rows)


if __name__ == "__main__":
    main()
