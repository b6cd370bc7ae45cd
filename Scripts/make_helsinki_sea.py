#!/usr/bin/env python3
"""Builds the sea polygons of an OpenStreetMap extract from its `natural=coastline`
ways, the way osmcoastline does for the planet (land lies to the left of a
coastline way's direction, water to its right), and writes them as a shapefile
for tilemaker's `ocean` layer (Scripts/make_helsinki_tiles.sh).

The extract is clipped to a box (its header's bounding box): a coastline way
keeps only its nodes inside the box, so each run of consecutive present nodes
is one piece of coast. A piece whose way continues outside the box is carried
on to the nearest edge of the box (the missing node's position is not in the
file; the extract's edge lies within metres of the last node kept, so the guess
moves the coast by at most that). The pieces and the box's outline are noded
and polygonized (PyPI `shapely`); each face is water or land by which side of
the coast pieces bounding it it lies on (a vote over their segments: water to
the right). The water faces, outer rings clockwise as shapefiles want, go to
`<SEA>.shp` (PyPI `pyshp`), in WGS 84 longitude/latitude, `featurecla`
"Ocean"; the land faces to `<LAND>.shp`, `featurecla` "Land" (Protomaps'
`earth` layer: without it, its styles draw land in the sea's colour).

  pip install osmium shapely pyshp
  Scripts/make_helsinki_sea.py EXTRACT.osm.pbf SEA LAND   (writes SEA.shp/.shx/.dbf/.prj and LAND.*)
"""
import sys
import osmium
import shapefile
import shapely
from shapely.geometry import LineString, Point, box as make_box
from shapely.geometry.polygon import orient
from shapely.ops import polygonize, unary_union

EPSILON = 1e-7   # degrees, about 1 cm: how far beside a coast segment a side is probed


def coast_pieces(path):
    ways = []
    class Ways(osmium.SimpleHandler):
        def way(self, w):
            if w.tags.get("natural") == "coastline":
                ways.append((w.id, [n.ref for n in w.nodes]))
    Ways().apply_file(path)
    wanted = {ref for _, refs in ways for ref in refs}
    locations = {}
    class Nodes(osmium.SimpleHandler):
        def node(self, n):
            if n.id in wanted:
                locations[n.id] = (n.location.lon, n.location.lat)
    Nodes().apply_file(path)
    pieces = []   # (way id, [(lon, lat)...], continues before, continues after)
    for way_id, refs in sorted(ways):
        run, start = [], 0
        for i, ref in enumerate(refs + [None]):
            if ref is not None and ref in locations:
                if not run:
                    start = i
                run.append(locations[ref])
                continue
            if len(run) >= 2 or (run and 0 < start and i < len(refs)):
                pieces.append((way_id, run, start > 0, i < len(refs)))
            run = []
    return pieces


def to_edge(point, outline):
    """The point of the box's outline nearest to `point`."""
    p = outline.interpolate(outline.project(Point(point)))
    return (p.x, p.y)


def main():
    source, sea, land = sys.argv[1], sys.argv[2], sys.argv[3]
    header = osmium.io.Reader(source, osmium.osm.osm_entity_bits.NOTHING).header().box()
    bbox = make_box(header.bottom_left.lon, header.bottom_left.lat, header.top_right.lon, header.top_right.lat)
    outline = bbox.exterior
    lines = []
    for way_id, coords, before, after in coast_pieces(source):
        coords = ([to_edge(coords[0], outline)] if before else []) + coords + ([to_edge(coords[-1], outline)] if after else [])
        lines.append(LineString(coords))
        print(f"coastline way {way_id}: {len(coords)} points, {'from the edge' if before else 'from its start'}"
              f" {'to the edge' if after else 'to its end'}", file=sys.stderr)
    if not lines:
        sys.exit("no natural=coastline in the extract")
    faces = list(polygonize(unary_union(lines + [outline])))
    votes = [0] * len(faces)
    tree = shapely.STRtree(faces)
    for line in lines:
        coords = list(line.coords)
        for (x0, y0), (x1, y1) in zip(coords, coords[1:]):
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            if length == 0:
                continue
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            nx, ny = (y1 - y0) / length * EPSILON, -(x1 - x0) / length * EPSILON   # to the right
            for side, vote in (((mx + nx, my + ny), 1), ((mx - nx, my - ny), -1)):
                for i in tree.query(Point(side), predicate="within"):
                    votes[i] += vote
    water = [f for f, v in zip(faces, votes) if v > 0]
    land_area = sum(f.area for f, v in zip(faces, votes) if v <= 0)
    print(f"{len(faces)} faces: {len(water)} water ({sum(f.area for f in water) / bbox.area:.1%} of the box), "
          f"{len(faces) - len(water)} land ({land_area / bbox.area:.1%})", file=sys.stderr)
    write(sea, water, "Ocean")
    write(land, [f for f, v in zip(faces, votes) if v <= 0], "Land")


def write(path, polygons, featurecla):
    writer = shapefile.Writer(path, shapeType=shapefile.POLYGON)
    writer.field("featurecla", "C", size=16)
    for polygon in polygons:
        polygon = orient(polygon, sign=-1.0)   # exterior clockwise, holes anticlockwise (the shapefile convention)
        writer.poly([list(polygon.exterior.coords)] + [list(r.coords) for r in polygon.interiors])
        writer.record(featurecla)
    writer.close()
    with open(path + ".prj", "w") as prj:
        prj.write('GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],'
                  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]')

main()
