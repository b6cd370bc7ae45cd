#!/usr/bin/env python3
"""Renders the Helsinki OpenMapTiles fixture with MapLibre Native (PyPI `pymgl`,
on Mesa's software OpenGL) for VectorMapRendererTests' likeness test:

- helsinki-label-free-style.json: our built-in light OpenMapTiles style
  (BuiltinVectorStyle(schema: .openMapTiles, look: .light).json, passed as the
  first argument) without its symbol layers;
- helsinki-maplibre-zZ.png: 512×512 at MapLibre zoom Z (13–16) centred on
  60.170 N, 24.945 E, reading the .mbtiles the .pmtiles was packed from.
  (Our zoom is MapLibre's + 1: our snapshot at zoom Z + 1 is the same view.)

  apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libopengl0
  pip install pymgl
  EGL_PLATFORM=surfaceless Scripts/make_vector_map_maplibre_references.py STYLE.json
"""
import json, os, sys
os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import pymgl

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapRenderingTests", "Fixtures", "tiles")
LATITUDE, LONGITUDE = 60.170, 24.945

style = json.load(open(sys.argv[1]))
style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
style["name"] = "URLSchemeKit OpenMapTiles light, label-free"
with open(os.path.join(here, "helsinki-label-free-style.json"), "w") as out:
    json.dump(style, out, indent=1, ensure_ascii=False)
    out.write("\n")
source = dict(style["sources"]["openmaptiles"])
source["url"] = "mbtiles://" + os.path.abspath(os.path.join(here, "helsinki-openmaptiles.mbtiles"))
style["sources"]["openmaptiles"] = source
for zoom in (13, 14, 15, 16):
    png = pymgl.Map(json.dumps(style), 512, 512, 1, LONGITUDE, LATITUDE, zoom).renderPNG()
    with open(os.path.join(here, f"helsinki-maplibre-z{zoom}.png"), "wb") as out:
        out.write(png)
    print(zoom, len(png), "bytes")
