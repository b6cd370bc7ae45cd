#!/usr/bin/env python3
"""Makes the WebP fixtures of our own (Tests/ImageCodecsTests/Fixtures/webp/anim_*.webp,
meta_*.webp) and the animations' references, anim_expectations.tsv: every composited frame as Pillow
decodes it (Pillow's WebP reader is libwebp's WebPAnimDecoder; a real decoder,
not ours), with its duration and the loop count.

- anim_mux.webp: frames assembled by `webpmux` with every combination of
  blend / no-blend and dispose none / background, at offsets, with alpha.
- anim_img2webp.webp: `img2webp -lossless`, the encoder choosing sub-frames,
  blending and disposal itself.
- anim_lossy.webp: `img2webp -lossy` with alpha (lossy frames with ALPH).

- meta_exif_icc.webp: lossless_vec_2_0.webp with an EXIF chunk (orientation 6)
  and an ICCP chunk (Pillow's sRGB profile) added by `webpmux -set`;
  meta_icc.icc is the profile `webpmux -get icc` reads back from it.

    python3 Scripts/make_webp_fixtures.py   (needs Debian's webp, Pillow)
"""
import os, subprocess, tempfile
from PIL import Image, ImageDraw, ImageSequence

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "Tests", "ImageCodecsTests", "Fixtures", "webp")
work = tempfile.mkdtemp()


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for x in b:
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def picture(w, h, seed, alpha):
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0) if alpha else (20 * seed % 256, 90, 160, 255))
    d = ImageDraw.Draw(im)
    for i in range(6):
        x0, y0 = (seed * 7 + i * 11) % w, (seed * 5 + i * 13) % h
        d.ellipse([x0 - 6, y0 - 5, x0 + 7, y0 + 6],
                  fill=((seed * 50 + i * 40) % 256, (i * 70) % 256, (seed * 30) % 256, [255, 128, 40, 200][i % 4]))
    d.line([0, seed % h, w - 1, (seed * 3) % h], fill=(250, 250, 0, 180), width=2)
    return im


def still(im, name, lossless=True):
    png = os.path.join(work, name + ".png")
    im.save(png)
    out = os.path.join(work, name + ".webp")
    subprocess.run(["cwebp", "-quiet", "-exact"] + (["-lossless"] if lossless else ["-q", "70"]) + [png, "-o", out], check=True)
    return out


def make_mux():
    # (w, h, x, y, duration, dispose, blend, alpha)
    frames = [(48, 40, 0, 0, 100, 0, "-b", False),
              (20, 16, 4, 6, 80, 0, "+b", True),
              (24, 18, 20, 10, 60, 1, "+b", True),
              (22, 20, 14, 12, 0, 0, "+b", True),
              (30, 24, 10, 8, 120, 1, "-b", True),
              (26, 20, 18, 16, 70, 0, "+b", True),
              (48, 40, 0, 0, 50, 1, "+b", True),
              (16, 14, 30, 24, 90, 0, "+b", True)]
    args = ["webpmux"]
    for i, (w, h, x, y, d, m, b, a) in enumerate(frames):
        args += ["-frame", still(picture(w, h, i + 1, a), "mux%d" % i), "+%d+%d+%d+%d%s" % (d, x, y, m, b)]
    subprocess.run(args + ["-loop", "3", "-bgcolor", "255,200,100,50", "-o", os.path.join(fixtures, "anim_mux.webp")],
                   check=True, capture_output=True)


def make_img2webp(name, mode):
    paths = []
    for i in range(6):
        im = picture(40, 32, 1, True)
        d = ImageDraw.Draw(im)
        d.rectangle([4 + i * 4, 4, 12 + i * 4, 14], fill=(255, 0, 0, 255 if i % 2 else 100))
        path = os.path.join(work, "%s%d.png" % (name, i))
        im.save(path)
        paths += ["-d", str(40 + 10 * i), path]
    subprocess.run(["img2webp", "-loop", "0", mode] + paths + ["-o", os.path.join(fixtures, name + ".webp")],
                   check=True, capture_output=True)


def make_metadata():
    import struct
    from PIL import ImageCms
    # A big-endian TIFF header, one IFD entry: Orientation (0x0112), SHORT, 1, value 6.
    exif = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + b"\x00" * 4
    exif_path, icc_path = os.path.join(work, "exif.bin"), os.path.join(work, "icc.icc")
    open(exif_path, "wb").write(exif)
    open(icc_path, "wb").write(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    source = os.path.join(fixtures, "lossless_vec_2_0.webp")
    step = os.path.join(work, "step.webp")
    out = os.path.join(fixtures, "meta_exif_icc.webp")
    subprocess.run(["webpmux", "-set", "exif", exif_path, source, "-o", step], check=True, capture_output=True)
    subprocess.run(["webpmux", "-set", "icc", icc_path, step, "-o", out], check=True, capture_output=True)
    subprocess.run(["webpmux", "-get", "icc", out, "-o", os.path.join(fixtures, "meta_icc.icc")], check=True, capture_output=True)


make_metadata()
make_mux()
make_img2webp("anim_img2webp", "-lossless")
make_img2webp("anim_lossy", "-lossy")

rows = []
for name in ["anim_mux.webp", "anim_img2webp.webp", "anim_lossy.webp"]:
    im = Image.open(os.path.join(fixtures, name))
    for index, frame in enumerate(ImageSequence.Iterator(im)):
        rgba = frame.convert("RGBA")
        rows.append("%s\t%d\t%d\t%d\t%d\t%d\t%016x" % (name, index, rgba.width, rgba.height, frame.info.get("duration", 0),
                                                      im.info.get("loop", 0), fnv1a64(rgba.tobytes())))
with open(os.path.join(fixtures, "anim_expectations.tsv"), "w") as out:
    out.write("# name\tframe\twidth\theight\tduration_ms\tloop\tfnv1a64(rgba)  (Pillow %s / libwebp; made by Scripts/make_webp_fixtures.py)\n"
              % Image.__version__ if hasattr(Image, "__version__") else "")
    out.write("\n".join(rows) + "\n")
print(len(rows), "frames")
