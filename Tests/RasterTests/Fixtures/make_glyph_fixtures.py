#!/usr/bin/env python3
"""Reference renderings of the embedded font's glyphs, by FreeType (through Pillow's ImageFont).

Reads the font the package embeds (Sources/Raster/Text/Fonts/DejaVuSans+Data.swift), draws each
glyph in GLYPHS white on black at 64 px per em, the left end of its baseline at ORIGIN, and
writes glyphs/<name>_96x96.gray (8-bit coverage, row order). Also writes glyphs/metrics.txt: the
advance width in font units (hmtx advances plus kern pairs, read with fontTools) of STRINGS.

Pillow offers no way to turn FreeType's hinting off, and FreeType hints even an instruction-free
font (its auto-hinter snaps stems and heights to whole pixels at 64 px). The package draws the
outline unhinted, so the reference is FreeType's rendering at 8 × 64 px, origin scaled alike,
averaged over 8 × 8 blocks: the hinting moves edges by at most 1/16 pixel at that size, and
what is compared is FreeType's reading of the outline (contours, quadratic curves, composite
glyphs and their transforms) with exact-area anti-aliasing.

Needs Pillow and fontTools. Run from the package root:
    python3 Tests/RasterTests/Fixtures/make_glyph_fixtures.py
"""
import base64
import io
import os
import re

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FONT_SWIFT = os.path.join(ROOT, "Sources", "Raster", "Text", "Fonts", "DejaVuSans+Data.swift")
OUT = os.path.join(HERE, "glyphs")
SIZE, ORIGIN, CANVAS, SUPERSAMPLE = 64, (16, 72), 96, 8
GLYPHS = {"g": "g", "zhe": "Ж", "eacute": "é", "omega": "Ω", "ampersand": "&"}
STRINGS = ["Санкт-Петербург", "AVATAR Wave", "Ελλάδα"]


def embedded_font():
    text = open(FONT_SWIFT).read()
    return base64.b64decode("".join(re.findall(r"^    ([A-Za-z0-9+/=]+)$", text, re.M)))


def advance(font, text):
    cmap, hmtx = font.getBestCmap(), font["hmtx"]
    pairs = font["kern"].kernTables[0].kernTable
    total, previous = 0, None
    for ch in text:
        name = cmap[ord(ch)]
        if previous is not None:
            total += pairs.get((previous, name), 0)
        total += hmtx[name][0]
        previous = name
    return total


def main():
    data = embedded_font()
    pil_font = ImageFont.truetype(io.BytesIO(data), SIZE * SUPERSAMPLE, layout_engine=ImageFont.Layout.BASIC)
    os.makedirs(OUT, exist_ok=True)
    for name, ch in GLYPHS.items():
        large = Image.new("L", (CANVAS * SUPERSAMPLE, CANVAS * SUPERSAMPLE), 0)
        ImageDraw.Draw(large).text((ORIGIN[0] * SUPERSAMPLE, ORIGIN[1] * SUPERSAMPLE), ch, font=pil_font, fill=255, anchor="ls")
        image = large.reduce(SUPERSAMPLE)  # the mean of each 8 × 8 block
        with open(os.path.join(OUT, "%s_%dx%d.gray" % (name, CANVAS, CANVAS)), "wb") as f:
            f.write(image.tobytes())
    font = TTFont(io.BytesIO(data))
    with open(os.path.join(OUT, "metrics.txt"), "w") as f:
        f.write("# text<TAB>advance in font units (hmtx + kern), unitsPerEm %d\n" % font["head"].unitsPerEm)
        for s in STRINGS:
            f.write("%s\t%d\n" % (s, advance(font, s)))
    print("wrote %d glyphs and %d advances" % (len(GLYPHS), len(STRINGS)))


if __name__ == "__main__":
    main()
