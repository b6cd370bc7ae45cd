#!/usr/bin/env python3
"""Writes pngsuite/expectations.tsv: for every PngSuite image that must decode,
its size and two hashes of its RGBA8 pixels, as decoded by pypng (a decoder
independent of ours, exact on 16-bit samples and tRNS colour keys).

RGBA8 rules, the same as PNGDecoder's: samples below 8 bits are scaled by
255 / (2^depth - 1); 16-bit samples keep their high byte; a tRNS colour key
is matched on the full-precision sample and makes the pixel transparent.
Pillow is used as a cross-check where it is exact (8-bit and below); it
differs only on tbbn0g04, where it matches the tRNS key against upscaled
values instead of raw samples.

Run once (pip install pypng pillow): python3 make_png_expectations.py
"""
import os
import zlib

import png

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "pngsuite")


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def rgba8(path):
    """pypng's raw samples (it inflates, unfilters and de-interlaces; sBIT is
    deliberately not applied), converted to RGBA8 by the rules above."""
    width, height, rows, info = png.Reader(filename=path).read()
    depth, planes = info["bitdepth"], info["planes"]
    # A PLTE in a truecolour image is only a suggestion: palettes apply to colour type 3 alone.
    palette = info.get("palette") if planes == 1 and not info["greyscale"] else None
    key = info.get("transparent")
    if key is not None and not isinstance(key, tuple):
        key = (key,)

    def eight(v):
        return v >> 8 if depth == 16 else v if depth == 8 else v * 255 // ((1 << depth) - 1)

    out = bytearray()
    for row in rows:
        row = list(row)
        for x in range(width):
            px = row[x * planes:(x + 1) * planes]
            if palette is not None:
                entry = palette[px[0]] if px[0] < len(palette) else (0, 0, 0)
                out += bytes(list(entry[:3]) + [entry[3] if len(entry) == 4 else 255])
            elif planes == 1:
                alpha = 0 if key is not None and tuple(px) == key else 255
                out += bytes([eight(px[0])] * 3 + [alpha])
            elif planes == 2:
                out += bytes([eight(px[0])] * 3 + [eight(px[1])])
            elif planes == 3:
                alpha = 0 if key is not None and tuple(px) == key else 255
                out += bytes([eight(v) for v in px] + [alpha])
            else:
                out += bytes([eight(v) for v in px])
    return width, height, bytes(out)


def main():
    lines = []
    agree = checked = 0
    for name in sorted(os.listdir(SUITE)):
        if not name.endswith(".png") or name.startswith("x"):
            continue
        width, height, data = rgba8(os.path.join(SUITE, name))
        lines.append("%s\t%d\t%d\t%08x\t%016x" % (name, width, height, zlib.crc32(data), fnv1a64(data)))
        try:
            from PIL import Image
            image = Image.open(os.path.join(SUITE, name))
            if "16" not in name and image.mode in ("P", "L", "LA", "RGB", "RGBA", "1", "PA"):
                checked += 1
                agree += image.convert("RGBA").tobytes() == data
        except ImportError:
            pass
    with open(os.path.join(SUITE, "expectations.tsv"), "w") as f:
        f.write("# name\twidth\theight\tcrc32(rgba)\tfnv1a64(rgba)  (made by make_png_expectations.py with pypng)\n")
        f.write("\n".join(lines) + "\n")
    print("%d expectations; Pillow agrees on %d of %d it decodes exactly" % (len(lines), agree, checked))


if __name__ == "__main__":
    main()
