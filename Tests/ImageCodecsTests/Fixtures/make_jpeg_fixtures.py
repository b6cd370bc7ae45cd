#!/usr/bin/env python3
"""Makes the JPEG decoder fixtures and their expectations with Pillow (libjpeg-turbo).

Source: a 45x37 crop of the IJG test image shared/data/jpeg/testorig.ppm (the
project's shared data, beside the package checkout)
(odd size on purpose, so partial MCUs and edge upsampling are exercised).
For each variant, NAME.jpg is the file Pillow writes and NAME.rgb the raw RGB8
bytes of Pillow's own decode of it (the reference our decoder must match to
PSNR >= 45 dB). Rerun: python3 make_jpeg_fixtures.py [path/to/testorig.ppm]
"""
import io, os, sys
from PIL import Image

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jpeg")
os.makedirs(here, exist_ok=True)
package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(package, "..", "shared", "data", "jpeg", "testorig.ppm")
base = Image.open(src).convert("RGB").crop((90, 50, 135, 87))

def save(name, image, **options):
    path = os.path.join(here, name + ".jpg")
    image.save(path, "JPEG", **options)
    decoded = Image.open(path)
    decoded.load()
    with open(os.path.join(here, name + ".rgb"), "wb") as f:
        f.write(decoded.convert("RGB").tobytes())

save("s444", base, quality=90, subsampling=0)
save("s422", base, quality=90, subsampling=1)
save("s420", base, quality=90, subsampling=2)
save("gray", base.convert("L"), quality=90)
save("progressive420", base, quality=90, subsampling=2, progressive=True)
save("progressive444", base, quality=85, subsampling=0, progressive=True)
save("restart420", base, quality=90, subsampling=2, restart_marker_blocks=1)
save("cmyk", base.convert("CMYK"), quality=95)
save("optimized", base, quality=75, subsampling=2, optimize=True)
# Chroma at most 2 samples wide: libjpeg replicates instead of smoothing (jdsample.c).
save("narrow3x420", base.crop((0, 0, 3, 20)), quality=90, subsampling=2)
save("narrow4x420", base.crop((5, 0, 9, 20)), quality=90, subsampling=2)
save("narrow4x422", base.crop((10, 0, 14, 20)), quality=90, subsampling=1)
for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = os.path.join(here, "orientation%d.jpg" % orientation)
    base.resize((16, 8)).save(path, "JPEG", quality=90, exif=exif.tobytes())
