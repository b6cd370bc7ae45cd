#!/usr/bin/env python3
"""Makes the asset:// test fixtures and their expected results with Pillow.

Sources (committed): photo.jpg (96x64, a photo-like picture), photo-o1.jpg ...
photo-o8.jpg (the same picture stored turned and tagged with each EXIF
orientation, so all eight must come out as photo.jpg does), logo.png (40x40
RGBA with transparency).

Expected results: expected/NAME.png, Pillow's (and, where Pillow has no such
operation, numpy's) rendering of each case in CASES below, following
URLSchemeKit's documented edit order: EXIF orientation, crop, rotate, flip,
filters, resize. Colour filters use the formulas Raster documents (Rec. 709
luma); blur, sharpen, rotation and resizing are Pillow's own, run on
premultiplied pixels ("RGBa") as Raster does.

Run from anywhere: python3 make_asset_fixtures.py (needs Pillow and numpy).
"""
import io, math, os, random
import numpy as np
from PIL import Image, ImageFilter, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))

# name, source file, query (as in the URL after id=...)
CASES = [(f"orient{n}", f"photo-o{n}.jpg", "format=png") for n in range(1, 9)] + [
    ("crop", "photo.jpg", "crop=0.1,0.2,0.5,0.5&format=png"),
    ("rotate90", "photo.jpg", "rotate=90&format=png"),
    ("rotate-90-flipv", "photo.jpg", "rotate=-90&flip=v&format=png"),
    ("rotate30", "photo.jpg", "rotate=30"),
    ("fliphv", "photo.jpg", "flip=hv&format=png"),
    ("grayscale", "photo.jpg", "filter=grayscale&format=png"),
    ("sepia", "photo.jpg", "filter=sepia&format=png"),
    ("invert", "photo.jpg", "filter=invert&format=png"),
    ("brightness", "photo.jpg", "filter=brightness:1.3&format=png"),
    ("contrast", "photo.jpg", "filter=contrast:1.5&format=png"),
    ("saturation", "photo.jpg", "filter=saturation:0.3&format=png"),
    ("blur", "photo.jpg", "filter=blur:2&format=png"),
    ("sharpen", "photo.jpg", "filter=sharpen&format=png"),
    ("fit", "photo.jpg", "width=60&height=60&format=png"),
    ("fill", "photo.jpg", "width=40&height=40&mode=fill&format=png"),
    ("stretch", "photo.jpg", "width=50&height=20&mode=stretch&format=png"),
    ("height", "photo.jpg", "height=48&format=png"),
    ("thumbnail", "photo.jpg", "width=24&format=png"),
    ("combined", "photo-o6.jpg", "crop=0.25,0,0.5,1&rotate=90&flip=h&filter=sepia,contrast:1.2&width=40&format=png"),
    ("logo-resize", "logo.png", "width=20"),
    ("logo-blur", "logo.png", "filter=blur:1.5"),
]


def photo():
    """A 96x64 photo-like picture: smooth gradients, shapes, texture, noise."""
    rng = random.Random(7)
    y, x = np.mgrid[0:64, 0:96].astype(np.float64)
    r = 120 + 100 * np.sin(x / 17.0) * np.cos(y / 23.0)
    g = 90 + 80 * (x / 96.0) + 40 * np.sin((x + y) / 9.0)
    b = 160 - 100 * (y / 64.0) + 30 * np.cos(x / 5.0)
    img = np.stack([r, g, b], axis=-1)
    img[20:40, 10:30] = [230, 40, 40]       # a red square, top left
    img[45:60, 70:90] = [30, 200, 60]       # a green square, bottom right
    noise = np.array([[rng.gauss(0, 6) for _ in range(96)] for _ in range(64)])
    img += noise[..., None]
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")


def logo():
    """40x40 RGBA: a blue disc with a soft edge on transparency, an orange bar."""
    y, x = np.mgrid[0:40, 0:40].astype(np.float64)
    d = np.hypot(x - 19.5, y - 19.5)
    alpha = np.clip((16 - d) * 60 + 128, 0, 255)
    rgba = np.zeros((40, 40, 4))
    rgba[..., 0], rgba[..., 1], rgba[..., 2], rgba[..., 3] = 40, 90, 220, alpha
    rgba[17:23, 4:36] = [250, 150, 20, 255]
    return Image.fromarray(rgba.astype(np.uint8), "RGBA")


# The stored transform that EXIF orientation n undoes (its inverse).
STORE_AS = {1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
            4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90,
            7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_270}


def make_sources():
    base = photo()
    base.save(os.path.join(HERE, "photo.jpg"), quality=92)
    for n, transpose in STORE_AS.items():
        stored = base if transpose is None else base.transpose(transpose)
        exif = Image.Exif()
        exif[0x0112] = n
        stored.save(os.path.join(HERE, f"photo-o{n}.jpg"), quality=92, exif=exif.tobytes())
    logo().save(os.path.join(HERE, "logo.png"))


def premultiplied(op, im):
    return op(im.convert("RGBa")).convert("RGBA")


def color_filter(im, f):
    a = np.asarray(im).astype(np.float64)
    rgb, alpha = a[..., :3], a[..., 3:]
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
    if f == "grayscale":
        rgb = np.stack([luma] * 3, -1)
    elif f == "sepia":
        rgb = np.stack([0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b,
                        0.272 * r + 0.534 * g + 0.131 * b], -1)
    elif f == "invert":
        rgb = 255 - rgb
    else:
        name, value = f.split(":")
        k = float(value)
        if name == "brightness":
            rgb = rgb * k
        elif name == "contrast":
            mean = luma.mean()
            rgb = mean + (rgb - mean) * k
        elif name == "saturation":
            rgb = luma[..., None] + (rgb - luma[..., None]) * k
    out = np.concatenate([np.clip(np.rint(rgb), 0, 255), alpha], -1).astype(np.uint8)
    return Image.fromarray(out, "RGBA")


def render(source, query):
    p = dict(item.split("=", 1) for item in query.split("&"))
    im = ImageOps.exif_transpose(Image.open(os.path.join(HERE, source))).convert("RGBA")
    if "crop" in p:
        x, y, w, h = map(float, p["crop"].split(","))
        W, H = im.size
        box = (math.floor(x * W), math.floor(y * H), min(W, math.ceil((x + w) * W)), min(H, math.ceil((y + h) * H)))
        im = im.crop(box)
    turn = float(p.get("rotate", 0)) % 360
    if turn in (90, 180, 270):
        im = im.transpose({90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}[turn])
    elif turn:
        im = premultiplied(lambda i: i.rotate(-turn, resample=Image.Resampling.BILINEAR, expand=True), im)
    flip = p.get("flip", "")
    if "h" in flip:
        im = im.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    if "v" in flip:
        im = im.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    for f in p.get("filter", "").split(","):
        if not f:
            continue
        if f.startswith("blur:"):
            im = premultiplied(lambda i: i.filter(ImageFilter.GaussianBlur(float(f[5:]))), im)
        elif f.startswith("sharpen"):
            amount = float(f.split(":")[1]) if ":" in f else 1.0
            im = premultiplied(lambda i: i.filter(ImageFilter.UnsharpMask(2, round(150 * amount), 3)), im)
        else:
            im = color_filter(im, f)
    w, h = im.size
    bw, bh, mode = p.get("width"), p.get("height"), p.get("mode", "fit")
    lanczos = Image.Resampling.LANCZOS
    if bw and not bh:
        bw = int(bw); im = im.resize((bw, max(1, round(h * bw / w))), lanczos)
    elif bh and not bw:
        bh = int(bh); im = im.resize((max(1, round(w * bh / h)), bh), lanczos)
    elif bw and bh:
        bw, bh = int(bw), int(bh)
        if mode == "stretch":
            im = im.resize((bw, bh), lanczos)
        elif mode == "fit":
            s = min(bw / w, bh / h)
            im = im.resize((max(1, min(bw, round(w * s))), max(1, min(bh, round(h * s)))), lanczos)
        else:
            s = max(bw / w, bh / h)
            cw, ch = max(bw, round(w * s)), max(bh, round(h * s))
            im = im.resize((cw, ch), lanczos)
            left, top = (cw - bw) // 2, (ch - bh) // 2
            im = im.crop((left, top, left + bw, top + bh))
    return im


if __name__ == "__main__":
    make_sources()
    os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
    with open(os.path.join(HERE, "cases.tsv"), "w") as table:
        for name, source, query in CASES:
            render(source, query).save(os.path.join(HERE, "expected", name + ".png"))
            table.write(f"{name}\t{source}\t{query}\n")
