#!/usr/bin/env python3
"""Renders the Helsinki fixtures with MapLibre Native (PyPI `pymgl`, on Mesa's
software OpenGL) for VectorMapLikenessTests:

- helsinki-label-free-style.json: our built-in light OpenMapTiles style
  (BuiltinVectorStyle(schema: .openMapTiles, look: .light).json, the first
  argument) without its symbol layers; helsinki-maplibre-zZ.png: 512×512 at
  MapLibre zoom Z (13–16) centred on 60.170 N, 24.945 E;
- helsinki-protomaps-label-free-style.json (from the light Protomaps style,
  the second argument) and helsinki-protomaps-maplibre-z14.png likewise;

each reading the .mbtiles the .pmtiles was packed from. (Our zoom is
MapLibre's + 1: our snapshot at zoom Z + 1 is the same view.)

  apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libopengl0
  pip install pymgl
  Scripts/make_vector_map_maplibre_references.py OPENMAPTILES-LIGHT.json PROTOMAPS-LIGHT.json
"""
import json, os, sys
os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import pymgl

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapRenderingTests", "Fixtures", "tiles")
LATITUDE, LONGITUDE = 60.170, 24.945

def render(style_path, schema, prefix, zooms):
    style = json.load(open(style_path))
    style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    style["name"] += ", label-free"
    with open(os.path.join(here, f"{prefix}label-free-style.json"), "w") as out:
        json.dump(style, out, indent=1, ensure_ascii=False)
        out.write("\n")
    (name, source), = style["sources"].items()
    source = dict(source)
    source["url"] = "mbtiles://" + os.path.abspath(os.path.join(here, f"helsinki-{schema}.mbtiles"))
    style["sources"][name] = source
    for zoom in zooms:
        png = pymgl.Map(json.dumps(style), 512, 512, 1, LONGITUDE, LATITUDE, zoom).renderPNG()
        with open(os.path.join(here, f"{prefix}maplibre-z{zoom}.png"), "wb") as out:
            out.write(png)
        print(schema, zoom, len(png), "bytes")

render(sys.argv[1], "openmaptiles", "helsinki-", (13, 14, 15, 16))
render(sys.argv[2], "protomaps", "helsinki-protomaps-", (14,))
