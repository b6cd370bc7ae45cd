"""Regenerates the Pillow expectations the Raster tests compare against.

Run from this folder: python3 make_expectations.py
Writes raw RGBA8 files (row order, no header); sizes are in the names.
  photo_64x48.rgba            the input: smooth fields + texture + noise, opaque
  photo_alpha_64x48.rgba      the same with a radial alpha ramp (for premultiplied resize)
  lanczos_24x18.rgba          photo resized with Image.LANCZOS (downscale)
  lanczos_100x75.rgba         photo resized with Image.LANCZOS (upscale)
  lanczos_alpha_24x18.rgba    photo_alpha resized with Image.LANCZOS
  bilinear_24x18.rgba         photo resized with Image.BILINEAR
  blur2_64x48.rgba            photo with ImageFilter.GaussianBlur(2)
"""
import math
import random
from PIL import Image, ImageFilter

W, H = 64, 48
rng = random.Random(1234)
photo = bytearray()
alpha = bytearray()
for y in range(H):
    for x in range(W):
        fx, fy = x / W, y / H
        base = 0.5 + 0.25 * math.sin(6.1 * fx + 2.3 * fy) + 0.2 * math.cos(4.7 * fy - 1.9 * fx * fx)
        base += 0.06 * math.sin(x * 0.9 + 3 * math.sin(y * 0.3)) * math.cos(y * 0.7)
        n = rng.randint(-6, 6)
        r = max(0, min(255, int(255 * (base * 0.9 + 0.1 * fy)) + n))
        g = max(0, min(255, int(255 * (0.8 * base + 0.15 * math.sin(3 * fx))) + n))
        b = max(0, min(255, int(255 * (1.0 - base * 0.7)) + n))
        photo += bytes((r, g, b, 255))
        d = math.hypot(x - W / 2, y - H / 2) / (W / 2)
        alpha += bytes((r, g, b, max(0, min(255, int(255 * (1.2 - d))))))

img = Image.frombytes("RGBA", (W, H), bytes(photo))
img_alpha = Image.frombytes("RGBA", (W, H), bytes(alpha))
outputs = {
    "photo_64x48.rgba": img,
    "photo_alpha_64x48.rgba": img_alpha,
    "lanczos_24x18.rgba": img.resize((24, 18), Image.LANCZOS),
    "lanczos_100x75.rgba": img.resize((100, 75), Image.LANCZOS),
    "lanczos_alpha_24x18.rgba": img_alpha.resize((24, 18), Image.LANCZOS),
    "bilinear_24x18.rgba": img.resize((24, 18), Image.BILINEAR),
    "blur2_64x48.rgba": img.filter(ImageFilter.GaussianBlur(2)),
}
for name, image in outputs.items():
    with open(name, "wb") as f:
        f.write(image.tobytes())
