#!/usr/bin/env python3
"""Writes what independent readers see in the Helsinki PMTiles fixtures
(OpenMapTiles and Protomaps schemas), for MapRenderingTests'
PMTilesArchiveTests to compare against, as helsinki-SCHEMA-reference.json:

- the header and metadata, read by PyPI `pmtiles` (protomaps' Python reader);
- tile ids of a few tiles, from `pmtiles.tile.zxy_to_tileid`;
- every tile's layers and their feature counts, as mapbox-vector-tile reads them;
- for the z14 tile over central Helsinki (60.170 N, 24.945 E = 14/9327/4742):
  every layer's extent and feature count, and the first features of each
  layer (type, id, properties, geometry) as PyPI `mapbox-vector-tile` decodes
  them (tile coordinates, y down; rings without their closing point).

  pip install pmtiles mapbox-vector-tile
  Scripts/make_helsinki_references.py   (after Scripts/make_helsinki_tiles.sh)
"""
import gzip, json, os, sys
import mapbox_vector_tile
from pmtiles.reader import Reader, MmapSource
from pmtiles.tile import zxy_to_tileid

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MapRenderingTests", "Fixtures", "tiles")
FEATURES_PER_LAYER = 12

def parts(geometry):
    kind, coordinates = geometry["type"], geometry["coordinates"]
    def ring(points):
        points = [list(p) for p in points]
        return points[:-1] if len(points) > 1 and points[0] == points[-1] else points
    if kind == "Point": return [[list(coordinates)]]
    if kind == "MultiPoint": return [[list(p) for p in coordinates]]
    if kind == "LineString": return [[list(p) for p in coordinates]]
    if kind == "MultiLineString": return [[list(p) for p in line] for line in coordinates]
    if kind == "Polygon": return [ring(r) for r in coordinates]
    if kind == "MultiPolygon": return [ring(r) for polygon in coordinates for r in polygon]
    raise ValueError(kind)

def write_reference(schema):
    archive = os.path.join(here, f"helsinki-{schema}.pmtiles")
    from pmtiles.reader import all_tiles
    with open(archive, "rb") as f:
        reader = Reader(MmapSource(f))
        header = reader.header()
        metadata = reader.metadata()
        raw = reader.get(14, 9327, 4742)
        # Every tile of the archive: its layers' feature counts.
        every_tile = []
        for (z, x, y), data in all_tiles(MmapSource(f)):
            layers = mapbox_vector_tile.decode(gzip.decompress(data)) if data else {}
            every_tile.append({"z": z, "x": x, "y": y, "layers": {name: len(layer["features"]) for name, layer in layers.items()}})
    tile = gzip.decompress(raw)
    decoded = mapbox_vector_tile.decode(tile, default_options={"y_coord_down": True})
    kinds = {"Point": 1, "MultiPoint": 1, "LineString": 2, "MultiLineString": 2, "Polygon": 3, "MultiPolygon": 3}
    reference = {
        "header": {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()},
        "metadata": {"name": metadata.get("name"), "attribution": metadata.get("attribution"),
                     "vector_layers": sorted(layer["id"] for layer in metadata.get("vector_layers", []))},
        "tile_ids": [[z, x, y, zxy_to_tileid(z, x, y)] for z, x, y in
                     [(0, 0, 0), (1, 1, 0), (2, 1, 3), (14, 9327, 4742), (14, 8704, 5971), (20, 123456, 654321), (31, 2**31 - 1, 2**31 - 1)]],
        "every_tile": every_tile,
        "tile": {"z": 14, "x": 9327, "y": 4742, "stored_bytes": len(raw), "inflated_bytes": len(tile), "layers": {
            name: {"extent": layer["extent"], "feature_count": len(layer["features"]),
                   "features": [{"type": kinds[f["geometry"]["type"]], "id": f.get("id"), "properties": f["properties"],
                                 "parts": parts(f["geometry"])} for f in layer["features"][:FEATURES_PER_LAYER]]}
            for name, layer in decoded.items()}},
    }
    with open(os.path.join(here, f"helsinki-{schema}-reference.json"), "w") as out:
        json.dump(reference, out, indent=0, sort_keys=True, ensure_ascii=False)
    print("wrote", os.path.join(here, f"helsinki-{schema}-reference.json"), file=sys.stderr)


for schema in ["openmaptiles", "protomaps"]:
    write_reference(schema)
