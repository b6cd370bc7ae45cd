#!/usr/bin/env python3
"""Finds a point of Kaisaniemi park's grass in both Helsinki fixtures
(OpenMapTiles `landcover` class `grass`, Protomaps `landuse` kind
`park`/`grass`) for URLSchemeKitTests' VectorMapURLTests: the grass polygon
nearest 60.1755 N, 24.9465 E, a point 6 px (zoom 15) inside it and 10 px clear
of every line and every other polygon but the park's own (and the land,
Protomaps `earth`, under it). The building, lake, sea and road places come
from make_vector_map_references.py (the two archives are made from the same
extract, so its places lie on the same features in both).

Read by PyPI `pmtiles`, decoded by `mapbox-vector-tile`, tested with
`shapely`: nothing of ours.

  pip install pmtiles mapbox-vector-tile shapely
  Scripts/make_vector_map_url_references.py
"""
import gzip, json, math, os
import mapbox_vector_tile
import shapely
from pmtiles.reader import MmapSource, all_tiles
from shapely.geometry import shape, Point
from shapely.ops import unary_union

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests")
tiles = os.path.join(root, "MapRenderingTests", "Fixtures", "tiles")
out = os.path.join(root, "URLSchemeKitTests", "Fixtures", "vectormap", "helsinki-park.json")
ZOOM = 15
PARK = (60.1755, 24.9465)
GRASS = {"openmaptiles": ("landcover", lambda p: p.get("class") == "grass"),
         "protomaps": ("landuse", lambda p: p.get("kind") in {"park", "grass", "garden"})}

def world(lat, lon):
    size = 256 * 2 ** ZOOM
    return ((lon + 180) / 360 * size, (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * size)

def lonlat(px, py):
    size = 256 * 2 ** ZOOM
    return [math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / size)))), px / size * 360 - 180]

def park(schema):
    layer_name, accept = GRASS[schema]
    target = Point(*world(*PARK))
    window = target.buffer(400)
    features = []
    with open(os.path.join(tiles, f"helsinki-{schema}.pmtiles"), "rb") as f:
        for (z, x, y), data in all_tiles(MmapSource(f)):
            if z != 14:
                continue
            for name, layer in mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True}).items():
                scale = 256 * 2 ** ZOOM / 2 ** z
                for feature in layer["features"]:
                    g = shape(feature["geometry"])
                    if not g.is_valid:
                        g = g.buffer(0)
                    g = shapely.transform(g, lambda a: (a / layer["extent"] + [x, y]) * scale)
                    if g.intersects(window):
                        features.append((name, feature["properties"], g))
    grass = [(p, g) for n, p, g in features if n == layer_name and accept(p) and g.geom_type in ("Polygon", "MultiPolygon")]
    properties, polygon = min(grass, key=lambda pg: pg[1].distance(target))
    lines = unary_union([g for _, _, g in features if g.geom_type in ("LineString", "MultiLineString")])
    # Protomaps' `earth` (the land, under everything on it) is not another polygon over the park.
    others = unary_union([g for n, _, g in features if g.geom_type in ("Polygon", "MultiPolygon") and n != "earth" and not g.equals(polygon)])
    area = polygon.buffer(-6).difference(lines.buffer(10)).difference(others.buffer(6))
    parts = [p for p in getattr(area, "geoms", [area]) if not p.is_empty]
    point = min(parts, key=lambda p: p.representative_point().distance(target)).representative_point()
    return {"layer": layer_name, "coordinate": lonlat(point.x, point.y),
            "properties": {k: v for k, v in properties.items() if isinstance(v, (str, int, float))}}

os.makedirs(os.path.dirname(out), exist_ok=True)
data = {"zoom": ZOOM, "park": {s: park(s) for s in GRASS}}
with open(out, "w") as f:
    json.dump(data, f, indent=1)
    f.write("\n")
print(json.dumps(data, indent=1))
