#!/usr/bin/env python3
"""Writes the hostile PMTiles archives of the corpus (tiles/) for the rows of
tiles.tsv, loaded by `urlscheme get 'map://…&tiles=t' --tiles t=ARCHIVE`:

- loop.pmtiles: a leaf directory whose one entry points at itself;
- outside-entry.pmtiles: a tile entry pointing a gigabyte past its section;
- outside-header.pmtiles: a header whose tile data section runs past the file;
- bomb.pmtiles: every tile one gzip member of 64 MiB of zeros (64 KiB stored);
- commands.pmtiles: every tile one line feature whose geometry is a LineTo of
  ten million repeats (20 MB of zero deltas, 20 KiB stored);
- folder-bomb/: a folder of tiles (`--tiles t=DIR`) whose tile 14/8192/8192
  (beside lat 0, lon 0) is the gzip bomb above, stored as mb-util stores tiles;
- folder-bad-zoom/: a folder whose metadata.json says minzoom "99";
- folder-deep-metadata/: a folder whose metadata.json nests 5,000 lists;
- folder-deep-json/: a folder whose metadata.json's `json` string (MBTiles
  style) nests 5,000 lists;
- leaf-bomb.pmtiles: 225 leaf directories (the audit's archive of issue 35),
  each inflating to 32 MiB: 8,388,607 entries of four one-byte varints, about
  200 MB each once parsed. The audit's file held 225 copies of the 32 KB gzip
  stream (7.3 MB); here the leaves share one: leaf i starts at its own gzip
  header, whose extra field (FEXTRA) spans the headers after it, so every
  leaf is a distinct offset and a complete gzip member of the same data;
- root-bomb.pmtiles: a root directory inflating to 32 MiB of such entries.

- mlt-feature-bomb/0/0/0.mlt: a MapLibre Tile (`encoding: "mlt"`, the rows
  of styles.tsv) whose geometry-type stream claims 2,147,483,647 features in
  16 bytes (one RLE run);
- mlt-values-bomb/0/0/0.mlt: one line whose part-length stream claims a run
  of 100,000,000 lengths in 18 bytes.

Each archive is otherwise valid (metadata naming OpenMapTiles layers, so the
built-in style is chosen), so the hostile part is what is reached.

    python3 Tests/URLSchemeKitTests/Hostile/make_hostile_tiles.py

The style of a million layers is not stored (3 MB): HostileCorpusTests writes it.
"""
import gzip
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TILES = os.path.join(HERE, "tiles")


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def directory(entries):
    """entries: (tile_id, run_length, length, offset); offsets stored as offset + 1."""
    out = varint(len(entries))
    last = 0
    for tile_id, _, _, _ in entries:
        out += varint(tile_id - last)
        last = tile_id
    for _, run, _, _ in entries:
        out += varint(run)
    for _, _, length, _ in entries:
        out += varint(length)
    for _, _, _, offset in entries:
        out += varint(offset + 1)
    return out


def archive(root, leaves=b"", tiles=b"", tile_compression=2, tile_data_length=None, internal_compression=1):
    metadata = json.dumps({"name": "hostile", "attribution": "hostile corpus",
                           "vector_layers": [{"id": "transportation"}, {"id": "building"}]}).encode()
    if internal_compression == 2:
        metadata = gzip.compress(metadata, mtime=0)
    root_offset = 127
    metadata_offset = root_offset + len(root)
    leaves_offset = metadata_offset + len(metadata)
    tiles_offset = leaves_offset + len(leaves)
    header = b"PMTiles" + bytes([3])
    header += struct.pack("<QQQQQQQQ", root_offset, len(root), metadata_offset, len(metadata),
                          leaves_offset, len(leaves), tiles_offset,
                          len(tiles) if tile_data_length is None else tile_data_length)
    header += struct.pack("<QQQ", 1, 1, 1)
    header += bytes([1, internal_compression, tile_compression, 1, 0, 14])       # clustered, internal none, tiles, MVT, zooms 0-14
    header += struct.pack("<iiii", -1800000000, -850000000, 1800000000, 850000000)
    header += bytes([0]) + struct.pack("<ii", 0, 0)
    assert len(header) == 127
    return header + root + metadata + leaves + tiles


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    return key + (varint(len(payload)) + payload if wire == 2 else payload)


def write(name, data):
    os.makedirs(os.path.dirname(os.path.join(TILES, name)), exist_ok=True)
    with open(os.path.join(TILES, name), "wb") as f:
        f.write(data)
    print(name, len(data), "bytes")


def main():
    os.makedirs(TILES, exist_ok=True)
    everything = 4_000_000_000      # a run covering every tile id up to zoom 15

    # A leaf at offset 0 of the leaf section whose one entry is a leaf at offset 0.
    probe = directory([(0, 0, 1, 0)])
    leaf = directory([(0, 0, len(probe), 0)])
    assert len(leaf) == len(probe)
    write("loop.pmtiles", archive(directory([(0, 0, len(leaf), 0)]), leaves=leaf))

    tile = gzip.compress(b"\x1a\x00", mtime=0)
    write("outside-entry.pmtiles", archive(directory([(0, everything, 1000, 1_000_000_000)]), tiles=tile))
    write("outside-header.pmtiles", archive(directory([(0, everything, len(tile), 0)]), tiles=tile, tile_data_length=1 << 40))

    bomb = gzip.compress(bytes(64 << 20), compresslevel=9, mtime=0)
    write("bomb.pmtiles", archive(directory([(0, everything, len(bomb), 0)]), tiles=bomb))

    # A layer with one LINESTRING feature: MoveTo(1) 0,0 then LineTo × 10,000,000 of zero deltas.
    geometry = varint(1 << 3 | 1) + b"\x00\x00" + varint(10_000_000 << 3 | 2) + bytes(20_000_000)
    feature = field(3, 0, varint(2)) + field(4, 2, geometry)
    layer = field(15, 0, varint(2)) + field(1, 2, b"transportation") + field(2, 2, feature) + field(5, 0, varint(4096))
    commands = gzip.compress(field(3, 2, layer), compresslevel=9, mtime=0)
    write("commands.pmtiles", archive(directory([(0, everything, len(commands), 0)]), tiles=commands))

    layers = json.dumps({"vector_layers": [{"id": "water"}, {"id": "transportation"}, {"id": "building"}]})
    metadata = {"name": "hostile", "format": "pbf", "minzoom": "14", "maxzoom": "14", "json": layers}
    write("folder-bomb/metadata.json", json.dumps(metadata).encode())
    write("folder-bomb/14/8192/8192.pbf", bomb)
    write("folder-bad-zoom/metadata.json", json.dumps(dict(metadata, minzoom="99")).encode())
    write("folder-bad-zoom/14/8192/8192.pbf", b"")
    write("folder-deep-metadata/metadata.json", b"[" * 5000 + b"]" * 5000)
    write("folder-deep-metadata/14/8192/8192.pbf", b"")
    write("folder-deep-json/metadata.json", json.dumps(dict(metadata, json="[" * 5000 + "]" * 5000)).encode())
    write("folder-deep-json/14/8192/8192.pbf", b"")


def directory_bomb(first_id, tile_length):
    """32 MiB of directory: 8,388,607 tile entries from first_id, each a run
    of one tile of tile_length bytes at offset 0 (four one-byte varints)."""
    count = ((32 << 20) - 4) // 4
    assert first_id < 128 and tile_length < 128
    raw = varint(count) + bytes([first_id]) + b"\x01" * (count - 1) + b"\x01" * count + bytes([tile_length]) * count + b"\x01" * count
    assert len(raw) <= 32 << 20
    return raw


def bombs():
    tile = gzip.compress(b"\x1a\x00", mtime=0)
    raw = directory_bomb(0, len(tile))
    write("root-bomb.pmtiles", archive(gzip.compress(raw, compresslevel=9, mtime=0), tiles=tile, internal_compression=2))

    # One deflate stream and trailer shared by 225 gzip headers: header i's
    # extra field covers the 12-byte headers of leaves i+1...224.
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = compressor.compress(raw) + compressor.flush()
    body += struct.pack("<II", zlib.crc32(raw), len(raw) & 0xFFFFFFFF)
    count = 225
    headers = b"".join(b"\x1f\x8b\x08\x04" + bytes(4) + b"\x02\xff" + struct.pack("<H", 12 * (count - 1 - i))
                       for i in range(count))
    leaves = headers + body
    span = (1 << 32) // count     # the root's leaves spread over every tile id to zoom 15
    root = directory([(i * span, 0, len(leaves) - 12 * i, 12 * i) for i in range(count)])
    write("leaf-bomb.pmtiles", archive(gzip.compress(root, mtime=0), leaves=leaves, tiles=tile, internal_compression=2))


def mlt_tiles():
    """The MapLibre Tiles: one feature table named `a` (extent 4096) of a geometry column."""
    def varint(value):
        out = bytearray()
        while value >= 0x80:
            out.append(value & 0x7F | 0x80)
            value >>= 7
        return bytes(out + bytes([value]))

    def stream(kind, encodings, count, data, rle=None):
        head = bytes([kind, encodings]) + varint(count) + varint(len(data))
        return head + (varint(rle[0]) + varint(rle[1]) if rle else b"") + data

    def tile(streams):
        body = b"\x01\x01a" + varint(4096) + b"\x01\x04" + varint(len(streams)) + b"".join(streams)
        return varint(len(body)) + body

    vertices = stream(0x13, 0x42, 4, bytes([2, 2, 4, 4]))  # (1, 1), (3, 3)
    feature_bomb = stream(0x10, 0x62, 2, varint(2**31 - 1) + b"\x01", rle=(1, 2**31 - 1))  # RLE, varint
    values_bomb = stream(0x32, 0x62, 2, varint(100_000_000) + b"\x02", rle=(1, 100_000_000))
    for name, streams in [("mlt-feature-bomb", [feature_bomb, vertices]),
                          ("mlt-values-bomb", [stream(0x10, 0x02, 1, b"\x01"), values_bomb, vertices])]:
        write(name + "/0/0/0.mlt", tile(streams))


main()
bombs()
mlt_tiles()
