#!/usr/bin/env python3
"""Writes a planted render-test suite of hostile GeoJSON data files, to measure
the GeoJSON budget (GeoJSONLimits) end to end in a release build:

    python3 Scripts/make_hostile_geojson_suite.py /tmp/hostile-geojson
    swift build -c release --product maplibre-render-tests
    for t in positions features deep onearrays zigzag; do
        /usr/bin/time -f "$t: %e s, %M KB" .build/release/maplibre-render-tests \\
            /tmp/hostile-geojson/integration hostile/$t --quiet
    done

Each test draws a fill and a line layer of one geojson source whose data is a
local:// file at the default limits: 4 MiB of the shortest positions (refused
at the vertex limit), 4 MiB of one-point features, arrays nested 100 000 deep,
4 MiB of one-number "positions", and a line of 250 000 positions zigzagging
across the world (accepted: read, tiled and drawn at zoom 2). The expected
image is a blank 512x512 PNG written here; the outcome that matters is the
time and memory.
"""
import json, os, struct, sys, zlib

root = os.path.join(sys.argv[1], "integration")

def blank_png(width=512, height=512):
    """A fully transparent RGBA PNG, made with the standard library alone."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(width * 4) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
limit = 4 << 20
os.makedirs(os.path.join(root, "data"), exist_ok=True)

def test(name, data, zoom=0):
    folder = os.path.join(root, "render-tests", "hostile", name)
    os.makedirs(folder, exist_ok=True)
    style = {"version": 8, "metadata": {"test": {"width": 512, "height": 512}}, "center": [0, 0], "zoom": zoom,
             "sources": {"g": {"type": "geojson", "data": f"local://data/{name}.geojson"}},
             "layers": [{"id": "f", "type": "fill", "source": "g"}, {"id": "l", "type": "line", "source": "g"}]}
    with open(os.path.join(folder, "style.json"), "w") as f:
        json.dump(style, f)
    with open(os.path.join(folder, "expected.png"), "wb") as f:
        f.write(blank_png())
    with open(os.path.join(root, "data", name + ".geojson"), "w") as f:
        f.write(data)

prefix = '{"type":"MultiPoint","coordinates":['
test("positions", prefix + ",".join(["[0,0]"] * ((limit - len(prefix) - 2) // 6)) + "]}")
feature = '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},'
test("features", '{"type":"FeatureCollection","features":[' + (feature * ((limit - 60) // len(feature)))[:-1] + "]}")
test("deep", '{"type":"Point","coordinates":' + "[" * 100_000 + "]" * 100_000 + "}")
test("onearrays", prefix + ",".join(["[0]"] * ((limit - 50) // 4)) + "]}")
test("zigzag", '{"type":"LineString","coordinates":[' + ",".join(f"[{(i % 360) - 180},{i % 2}]" for i in range(250_000)) + "]}", zoom=2)
