#!/usr/bin/env python3
"""Picks places in the Helsinki OpenMapTiles fixture where one style layer alone
decides a snapshot's pixel, for MapRenderingTests' VectorMapRendererTests:

- `building`: a point inside a building, 5 px (at zoom 15, 256-px tiles)
  clear of its edges, of every other fill and of every line;
- `water`: a point inside a lake (`water` polygon, not `ocean`), as clear of everything else;
- `sea` (layer `water`, class `ocean`): a point of the harbour's sea (the sea
  Scripts/make_helsinki_sea.py builds from the coastline), inside both zoom-15
  test views, 3 px clear of every other polygon and 6 px of every line in both
  archives (Protomaps `earth`, the land, included), so only the sea decides it;
- `quay` (layer `earth`): the nearest point of land to it where nothing but
  the land (the background, Protomaps `earth`) decides the pixel;
- `road`: the middle of a 20-px-or-longer straight stretch of a road (a
  `transportation` line of a class the built-in style draws), with no other
  transportation, boundary or waterway line within 24 px, and the stretch's ends.

The tiles are read by PyPI `pmtiles` and decoded by PyPI `mapbox-vector-tile`,
geometry tested with `shapely`: nothing of ours. Writes
Tests/MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles-places.json.

  pip install pmtiles mapbox-vector-tile shapely
  Scripts/make_vector_map_references.py
"""
import gzip, json, math, os, sys
import mapbox_vector_tile
import shapely
import shapely.ops
from shapely.strtree import STRtree
from pmtiles.reader import Reader, MmapSource, all_tiles
from shapely.geometry import shape, Point
from shapely.ops import unary_union

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapRenderingTests", "Fixtures", "tiles")
ZOOM = 15                       # 256-px tiles: pixels of the test's snapshot
CENTER = (60.170, 24.945)
ROAD_CLASSES = {"motorway", "trunk", "primary", "secondary", "tertiary", "minor", "busway", "service", "track"}

def to_pixels(z, x, y, extent):
    """Maps tile coordinates (y down) to world pixels at ZOOM, an array at a time."""
    scale = 256 * 2 ** ZOOM / 2 ** z
    return lambda a: (a / extent + [x, y]) * scale

def lonlat(px, py):
    size = 256 * 2 ** ZOOM
    lon = px / size * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / size))))
    return [lat, lon]

def transform(geometry, f):
    return shapely.transform(geometry, f)

def read(schema):
    """Every z14 feature of an archive: (layer, properties, shapely geometry in z15 pixels)."""
    features = []
    with open(os.path.join(here, f"helsinki-{schema}.pmtiles"), "rb") as f:
        for (z, x, y), data in all_tiles(MmapSource(f)):
            if z != 14 or not data:
                continue
            for name, layer in mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True}).items():
                f_ = to_pixels(z, x, y, layer["extent"])
                for feature in layer["features"]:
                    g = shape(feature["geometry"])
                    if not g.is_valid:
                        g = g.buffer(0)
                    features.append((name, feature["properties"], transform(g, f_)))
    return features

def is_sea(name, properties):
    return name == "water" and (properties.get("class") == "ocean" or properties.get("kind") == "ocean")

def sea_places(cx, cy):
    """The harbour point farthest from everything but the sea, in both archives,
    and the nearest point of land beside it clear of everything but the land."""
    # Both test views: 512×512 over 60.170 N (VectorMapRendererTests), 512×640 over 60.1705 N (VectorMapURLTests).
    _, top = [v * 256 * 2 ** ZOOM for v in (0, (1 - math.asinh(math.tan(math.radians(60.1705))) / math.pi) / 2)]
    view = shapely.box(cx - 250, cy - 250, cx + 250, cy + 250).intersection(shapely.box(cx - 250, top - 314, cx + 250, top + 314))
    water, land = view, view
    archives = [read(schema) for schema in ("openmaptiles", "protomaps")]
    for features in archives:
        sea = unary_union([g for n, p, g in features if is_sea(n, p) and g.geom_type in ("Polygon", "MultiPolygon")])
        others = unary_union([g for n, p, g in features if not is_sea(n, p) and g.geom_type in ("Polygon", "MultiPolygon")])
        lines = unary_union([g for _, _, g in features if g.geom_type in ("LineString", "MultiLineString")])
        window = water.envelope.buffer(20)
        water = water.intersection(sea.buffer(-3)).difference(others.intersection(window).buffer(3)).difference(lines.intersection(window).buffer(6))
    circle = shapely.maximum_inscribed_circle(water, 0.01)
    point = Point(circle.coords[0])
    print(f"sea: {water.area:.0f} px² clear, the point {circle.length:.1f} px from the nearest edge of it", file=sys.stderr)
    # The land: within 40 px of the sea point, 3 px clear of the sea and of every
    # polygon but Protomaps' `earth`, 6 px of every line, in both archives.
    land = land.intersection(point.buffer(40))
    for features in archives:
        sea = unary_union([g for n, p, g in features if is_sea(n, p) and g.geom_type in ("Polygon", "MultiPolygon")])
        others = unary_union([g for n, p, g in features if n != "earth" and g.geom_type in ("Polygon", "MultiPolygon")])
        lines = unary_union([g for _, _, g in features if g.geom_type in ("LineString", "MultiLineString")])
        earth = unary_union([g for n, p, g in features if n == "earth"]) if any(n == "earth" for n, _, _ in features) else land
        land = land.intersection(earth.buffer(-3)).difference(sea.buffer(3)).difference(others.buffer(3)).difference(lines.buffer(6))
    quay = shapely.ops.nearest_points(land, point)[0]
    print(f"land: {land.area:.0f} px² clear, the point {quay.distance(point):.1f} px from the sea point", file=sys.stderr)
    return [{"layer": "water", "name": "sea", "coordinate": lonlat(point.x, point.y), "properties": {"class": "ocean"}},
            {"layer": "earth", "name": "quay", "coordinate": lonlat(quay.x, quay.y)}]

def main():
    features = read("openmaptiles")
    cx, cy = [v * 256 * 2 ** ZOOM for v in ((CENTER[1] + 180) / 360,
              (1 - math.asinh(math.tan(math.radians(CENTER[0]))) / math.pi) / 2)]
    center = Point(cx, cy)
    polygons = lambda names: [g for n, _, g in features if n in names and g.geom_type in ("Polygon", "MultiPolygon")]
    lines = lambda names: [g for n, _, g in features if n in names and g.geom_type in ("LineString", "MultiLineString")]
    print("decoded", len(features), "features")
    all_lines = unary_union(lines({"transportation", "boundary", "waterway", "aeroway"}))
    fills = {n: unary_union(polygons({n})) for n in ("building", "water", "landuse", "landcover", "park", "aeroway")}
    fills["water"] = unary_union([g for n, p, g in features if n == "water" and not is_sea(n, p) and g.geom_type in ("Polygon", "MultiPolygon")])

    def clear_interior(name, margin, line_margin, above):
        others = unary_union([fills[n] for n in above])
        area = fills[name].buffer(-margin)
        window = area.envelope.buffer(2 * line_margin)
        area = area.difference(others.intersection(window).buffer(margin))
        area = area.difference(all_lines.intersection(window).buffer(line_margin))
        parts = list(getattr(area, "geoms", [area]))
        parts = [p for p in parts if not p.is_empty and p.area > 4]
        best = min(parts, key=lambda p: p.representative_point().distance(center))
        p = best.representative_point()
        return {"layer": name, "coordinate": lonlat(p.x, p.y)}

    # A building is translucent at zoom 14 (the style's zoom for a zoom-15 map):
    # nothing may lie under it either. Water is opaque: only what is drawn above counts.
    places = [clear_interior("building", 5, 12, ["water", "landuse", "landcover", "park", "aeroway"]),
              clear_interior("water", 3, 8, ["building", "aeroway"])] + sea_places(cx, cy)
    # A road: the longest clear straight stretch near the centre.
    transport = [(p, g) for n, p, g in features if n == "transportation"]
    tree = STRtree([g for _, g in transport])
    others = unary_union(lines({"boundary", "waterway"}))
    best = None
    for properties, g in transport:
        if properties.get("class") not in ROAD_CLASSES or properties.get("brunnel") or g.geom_type != "LineString":
            continue
        coords = list(g.coords)
        for a, b in zip(coords, coords[1:]):
            length = math.dist(a, b)
            if length < 20:
                continue
            mid = Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if not (0 < mid.x - cx + 256 < 512 and 0 < mid.y - cy + 256 < 512):
                continue
            # Other lines near it: any transportation not passing through this point
            # (the same road repeats in a neighbouring tile's buffer), any other line.
            near = [transport[i][1] for i in tree.query(mid.buffer(12))]
            crowded = any(0.01 < h.distance(mid) < 12 for h in near) or others.distance(mid) < 12
            if crowded:
                continue
            score = (length, -mid.distance(center))
            if best is None or score > best[0]:
                best = (score, properties, a, b, mid)
    _, properties, a, b, mid = best
    places.append({"layer": "road", "coordinate": lonlat(mid.x, mid.y), "from": lonlat(*a), "to": lonlat(*b),
                   "properties": {k: v for k, v in properties.items() if isinstance(v, (str, int, float))}})
    with open(os.path.join(here, "helsinki-openmaptiles-places.json"), "w") as out:
        json.dump({"zoom": ZOOM, "center": list(CENTER), "places": places}, out, indent=1)
        out.write("\n")
    print(json.dumps(places, indent=1))

main()
