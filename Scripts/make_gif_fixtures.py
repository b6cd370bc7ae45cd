#!/usr/bin/env python3
"""Writes the GIF test fixtures and their expected frames.

Each fixture is a small GIF written by the encoder below (plain LZW, so every
block is as we choose: rectangles, palettes, transparency, disposal, interlace,
delays, loop count, the deferred clear), or by gifsicle/Pillow from one. The
expected frames come from real decoders, never from ours:

- gifsicle --unoptimize --explode gives each frame composited on the screen
  (browser rules: "background" disposal clears to transparent); each exploded
  file, one full-screen image, is read with Pillow into RGBA;
- Pillow reads the same file frame by frame (seek, convert RGBA) as a cross-check;
  the script stops if the two disagree, except where a fixture names the one
  it follows (see CASES) and why.

Written next to each NAME.gif: NAME.png, the expected frames stacked top to
bottom (transparent pixels as 0,0,0,0), and NAME.json: frame count, canvas
size, each frame's stored delay in ms, the stored loop count (null without a
NETSCAPE2.0 block) and the reference used.

Run from the repository root: python3 Scripts/make_gif_fixtures.py
(apt-get install gifsicle; pip install pillow)
"""
import glob
import json
import os
import random
import shutil
import subprocess
import tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "ImageCodecsTests", "Fixtures", "gif")


# --- A plain GIF encoder -----------------------------------------------------

def lzw(indices, min_size, deferred_clear=False):
    """GIF LZW: codes least significant bit first, a clear code first, the
    table reset when full (or, with deferred_clear, kept full to the end)."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    out, acc, nbits = bytearray(), 0, 0

    def emit(code, size):
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    def reset():
        return {}, clear + 2, min_size + 1

    table, nxt, size = reset()
    emit(clear, size)
    prefix = None
    for b in indices:
        if prefix is None:
            prefix = b
            continue
        key = (prefix, b)
        if key in table:
            prefix = table[key]
            continue
        emit(prefix, size)
        if nxt < 4096:
            table[key] = nxt
            nxt += 1
            if nxt > (1 << size) and size < 12:
                size += 1
        elif not deferred_clear:
            emit(clear, size)
            table, nxt, size = reset()
        prefix = b
    if prefix is not None:
        emit(prefix, size)
    emit(end, size)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out + b"\0")


def palette_bytes(colors):
    """Colors padded to a power of two (at least 2); returns (size bits, bytes)."""
    bits = 1
    while (1 << bits) < len(colors):
        bits += 1
    padded = list(colors) + [(0, 0, 0)] * ((1 << bits) - len(colors))
    return bits - 1, b"".join(bytes(c) for c in padded)


def interlace_order(height):
    return list(range(0, height, 8)) + list(range(4, height, 8)) + list(range(2, height, 4)) + list(range(1, height, 2))


def gif(width, height, frames, global_palette=None, loop=None, version=b"89a", background=0):
    """frames: dicts with rect (x, y, w, h), pixels (row-major indices),
    optional palette (local), transparent, disposal, delay (cs), interlace,
    min_size, deferred_clear, control (False: no Graphic Control Extension)."""
    out = bytearray(b"GIF" + version)
    flags = 0
    gp = b""
    if global_palette is not None:
        bits, gp = palette_bytes(global_palette)
        flags = 0x80 | 0x70 | bits
    out += width.to_bytes(2, "little") + height.to_bytes(2, "little") + bytes([flags, background, 0]) + gp
    if loop is not None:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + loop.to_bytes(2, "little") + b"\0"
    for f in frames:
        if f.get("control", True):
            packed = (f.get("disposal", 0) << 2) | (1 if f.get("transparent") is not None else 0)
            out += b"\x21\xF9\x04" + bytes([packed]) + f.get("delay", 10).to_bytes(2, "little") \
                + bytes([f.get("transparent") or 0, 0])
        x, y, w, h = f["rect"]
        iflags = 0
        lp = b""
        if f.get("palette") is not None:
            bits, lp = palette_bytes(f["palette"])
            iflags |= 0x80 | bits
        if f.get("interlace"):
            iflags |= 0x40
        out += b"\x2C" + b"".join(v.to_bytes(2, "little") for v in (x, y, w, h)) + bytes([iflags]) + lp
        pixels = f["pixels"]
        if f.get("interlace"):
            pixels = [p for row in interlace_order(h) for p in pixels[row * w:(row + 1) * w]]
        min_size = f.get("min_size", 8)
        out += bytes([min_size]) + sub_blocks(lzw(pixels, min_size, f.get("deferred_clear", False)))
    return bytes(out + b"\x3B")


# --- The cases -----------------------------------------------------------------

def pattern(w, h, colors, seed, blocky=True):
    rng = random.Random(seed)
    if not blocky:
        return [rng.randrange(colors) for _ in range(w * h)]
    cell = [rng.randrange(colors) for _ in range(((w + 3) // 4) * ((h + 3) // 4))]
    return [cell[(y // 4) * ((w + 3) // 4) + x // 4] for y in range(h) for x in range(w)]


PALETTE16 = [(i * 16, 255 - i * 16, (i * 97) % 256) for i in range(16)]


def disposal_case(disposal, first_disposal=None):
    # The first frame has a transparent index (15, also the screen's background index) so that gifsicle and
    # Pillow dispose to transparent as browsers do: without one, both fill with the background colour.
    first = [15 if j % 11 == 0 else p for j, p in enumerate(pattern(24, 16, 15, 1))]
    frames = [dict(rect=(0, 0, 24, 16), pixels=first, delay=5, disposal=first_disposal or disposal, transparent=15)]
    rects = [(3, 2, 10, 8), (8, 5, 12, 9), (1, 7, 9, 9), (12, 0, 12, 16)]
    for i, (x, y, w, h) in enumerate(rects):
        px = pattern(w, h, 16, 10 + i)
        px = [15 if (j * 7 + i) % 5 == 0 else p for j, p in enumerate(px)]  # some transparent pixels
        frames.append(dict(rect=(x, y, w, h), pixels=px, delay=[0, 1, 2, 30][i], transparent=15, disposal=disposal))
    return gif(24, 16, frames, PALETTE16, loop=0, background=15)


def cases():
    yield "disposal_keep", disposal_case(1), {}
    yield "disposal_background", disposal_case(2), {}
    yield "disposal_previous", disposal_case(3, first_disposal=1), {}
    yield "disposal_previous_first", disposal_case(3), {}
    # Unspecified (0) and the undefined 4–7: browsers keep the frame (4 is read as "previous" by Chromium;
    # gifsicle and Pillow treat 4–7 differently, so only 0 is used here).
    yield "disposal_unspecified", disposal_case(0), {}

    # Interlaced frames of heights that are and are not multiples of 8.
    frames = [dict(rect=(0, 0, 20, 29), pixels=pattern(20, 29, 16, 3), interlace=True, delay=4),
              dict(rect=(2, 3, 13, 13), pixels=pattern(13, 13, 16, 4), interlace=True, transparent=0, delay=4),
              dict(rect=(0, 28, 20, 1), pixels=pattern(20, 1, 16, 5), interlace=True, delay=4)]
    yield "interlaced", gif(20, 29, frames, PALETTE16, loop=2), {}

    # Local palettes (of 2, 4 and 256 colours: code sizes 2, 2 and 8), one frame on the global palette.
    rng = random.Random(7)
    big = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(256)]
    mid = big[:64]
    frames = [dict(rect=(0, 0, 16, 16), pixels=pattern(16, 16, 2, 6), palette=[(255, 0, 0), (0, 0, 255)], min_size=2, delay=7),
              dict(rect=(4, 4, 8, 8), pixels=pattern(8, 8, 4, 7), palette=[(1, 2, 3), (40, 50, 60), (200, 100, 0), (9, 9, 9)],
                   min_size=2, delay=7),
              dict(rect=(0, 8, 16, 8), pixels=pattern(16, 8, 64, 8, blocky=False), palette=mid, delay=7, transparent=3),
              dict(rect=(2, 0, 5, 5), pixels=pattern(5, 5, 16, 9), delay=7)]
    # gifsicle cannot unoptimize local palettes; merged into one global palette first (86 colours, exact).
    yield "local_palettes", gif(16, 16, frames, PALETTE16), {"merge_palettes": True}

    # A still GIF87a (no extensions at all), and one whose LZW table fills and is kept full (deferred clear).
    yield "still87a", gif(33, 21, [dict(rect=(0, 0, 33, 21), pixels=pattern(33, 21, 16, 11), control=False)],
                          PALETTE16, version=b"87a"), {}
    noise = pattern(96, 96, 256, 12, blocky=False)
    yield "deferred_clear", gif(96, 96, [dict(rect=(0, 0, 96, 96), pixels=noise, deferred_clear=True)], big), {}

    # Frames reaching past the screen's right and bottom edges: browsers clip them.
    frames = [dict(rect=(0, 0, 16, 12), pixels=[15 if j % 9 == 0 else p for j, p in enumerate(pattern(16, 12, 15, 13))],
                   delay=10, transparent=15),
              dict(rect=(10, 6, 12, 10), pixels=pattern(12, 10, 16, 14), delay=10, disposal=2),
              dict(rect=(14, 0, 8, 20), pixels=pattern(8, 20, 16, 15), delay=10)]
    # Pillow, once it has enlarged its image for frame 1, shows frame 0's transparent pixels as opaque
    # (index 15's colour) in later frames; gifsicle keeps them transparent, as browsers do. gifsicle is followed.
    yield "outside_canvas", gif(16, 12, frames, PALETTE16, loop=5), {"clip": True, "gifsicle_only": [1, 2]}

    # gifsicle's optimiser (-O3) and Pillow's encoder on the disposal case: sub-rectangles, transparency.
    yield "gifsicle_o3", ("gifsicle", "disposal_background"), {}
    yield "pillow_written", ("pillow", None), {}


def pillow_written(path):
    frames = []
    for i in range(6):
        im = Image.new("RGB", (30, 20), (10, 20, 30))
        for y in range(20):
            for x in range(30):
                if (x // 5 + y // 5 + i) % 3 == 0:
                    im.putpixel((x, y), (255, (i * 40) % 256, 0))
        frames.append(im.convert("P", palette=Image.Palette.ADAPTIVE, colors=8))
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=[30, 0, 50, 120, 10, 40], loop=3, disposal=2)


# --- References -------------------------------------------------------------------

def rgba_bytes(im):
    data = bytearray(im.convert("RGBA").tobytes())
    for i in range(0, len(data), 4):
        if data[i + 3] == 0:
            data[i:i + 4] = b"\0\0\0\0"
    return bytes(data)


def gifsicle_frames(path, tmp, merge_palettes=False):
    base = os.path.join(tmp, "x.gif")
    for old in glob.glob(base + "*"):
        os.remove(old)
    if merge_palettes:
        merged = os.path.join(tmp, "merged.gif")
        subprocess.run(["gifsicle", "--colors=255", path, "-o", merged], check=True)
        path = merged
    subprocess.run(["gifsicle", "--unoptimize", "--explode", path, "-o", base], check=True)
    frames = []
    for name in sorted(glob.glob(base + ".*")):
        with Image.open(name) as im:
            frames.append((im.size, rgba_bytes(im)))
    return frames


def pillow_frames(path):
    frames, delays = [], []
    with Image.open(path) as im:
        loop = im.info.get("loop")
        for i in range(getattr(im, "n_frames", 1)):
            im.seek(i)
            frames.append((im.size, rgba_bytes(im)))
            delays.append(im.info.get("duration", 0))
    return frames, delays, loop


def crop(frame, size):
    (w, h), data = frame
    if (w, h) == size:
        return frame
    cw, ch = size
    rows = [data[y * w * 4:(y * w + cw) * 4] for y in range(ch)]
    return (size, b"".join(rows))


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, content, notes in cases():
            path = os.path.join(OUT, name + ".gif")
            if isinstance(content, tuple) and content[0] == "gifsicle":
                subprocess.run(["gifsicle", "-O3", os.path.join(OUT, content[1] + ".gif"), "-o", path], check=True)
            elif isinstance(content, tuple):
                pillow_written(path)
            else:
                with open(path, "wb") as f:
                    f.write(content)
            with Image.open(path) as im:
                size = im.size
            ours = gifsicle_frames(path, tmp, notes.get("merge_palettes", False))
            theirs, delays, loop = pillow_frames(path)
            screen = size
            reference = "gifsicle --unoptimize --explode, cross-checked with Pillow"
            if notes.get("merge_palettes"):
                reference = "gifsicle --colors=255 (lossless here), then --unoptimize --explode, cross-checked with Pillow"
            if notes.get("clip"):
                # Pillow grows its image to hold a frame that reaches past the screen;
                # browsers and gifsicle clip. Compare Pillow's frames cropped to the screen.
                ours = [crop(f, screen) for f in ours]
                theirs = [crop(f, screen) for f in theirs]
                reference += " (both cropped to the logical screen: they enlarge the image, browsers clip)"
            for i in notes.get("gifsicle_only", []):
                theirs[i] = ours[i]
            if notes.get("gifsicle_only"):
                reference += f"; frames {notes['gifsicle_only']} from gifsicle alone (see make_gif_fixtures.py)"
            if [f[1] for f in ours] != [f[1] for f in theirs]:
                mismatched = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
                raise SystemExit(f"{name}: gifsicle and Pillow disagree on frames {mismatched} "
                                 f"({len(ours)} vs {len(theirs)} frames)")
            width, height = screen
            strip = Image.frombytes("RGBA", (width, height * len(ours)), b"".join(f[1] for f in ours))
            strip.save(os.path.join(OUT, name + ".png"), optimize=True)
            with open(os.path.join(OUT, name + ".json"), "w") as f:
                json.dump({"width": width, "height": height, "frames": len(ours), "delays_ms": delays,
                           "loop": loop, "reference": reference}, f, indent=1)
                f.write("\n")
            print(f"{name}: {len(ours)} frames {width}x{height}, loop {loop}, delays {delays}")


if __name__ == "__main__":
    main()
