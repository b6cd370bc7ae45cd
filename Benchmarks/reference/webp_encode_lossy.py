"""Reference side of `urlscheme-bench webp-encode-lossy`: libwebp's lossy encoder
through Pillow, in process, at `cwebp -q 75 -m 4`'s settings (the default preset,
quality 75, method 4), on the raw photo and map images (opaque, so as RGB). For
each it also reports the PSNR (RGB) and SSIM (luma, 11×11 Gaussian window,
σ 1.5) against the raw image of libwebp's file and of ours, both decoded by
Pillow (libwebp): quality compared at the same decoder."""
import io

import numpy
import PIL
import PIL.Image
from PIL import features
from common import emit, load_rgba, median_seconds, parser

p = parser(__doc__)
for kind in ("photo", "map"):
    p.add_argument(kind, help="raw RGBA8 %s" % kind)
    p.add_argument(kind + "_ours", help="our WebP file of the %s" % kind)
args = p.parse_args()


def decoded(data):
    return numpy.asarray(PIL.Image.open(io.BytesIO(data)).convert("RGB"), dtype=numpy.float64)


def psnr(a, b):
    mse = numpy.mean((a - b) ** 2)
    return float("inf") if mse == 0 else float(10 * numpy.log10(255 * 255 / mse))


def ssim(a, b):
    def luma(x):
        return x[..., 0] * 0.299 + x[..., 1] * 0.587 + x[..., 2] * 0.114

    radius, sigma = 5, 1.5
    kernel = numpy.exp(-(numpy.arange(-radius, radius + 1) ** 2) / (2 * sigma * sigma))
    kernel /= kernel.sum()

    def blur(x):  # separable, 'valid' windows only
        x = numpy.apply_along_axis(lambda r: numpy.convolve(r, kernel, "valid"), 1, x)
        return numpy.apply_along_axis(lambda c: numpy.convolve(c, kernel, "valid"), 0, x)

    x, y = luma(a), luma(b)
    mx, my = blur(x), blur(y)
    sxx, syy, sxy = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    return float(numpy.mean(((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))))


label = "libwebp %s -q 75 -m 4 (Pillow %s)" % (features.version("webp"), PIL.__version__)
rows = {}
for kind in ("photo", "map"):
    image = load_rgba(getattr(args, kind)).convert("RGB")
    original = numpy.asarray(image, dtype=numpy.float64)
    out = [b""]

    def encode():
        buffer = io.BytesIO()
        image.save(buffer, "WEBP", quality=75, method=4)
        out[0] = buffer.getvalue()

    seconds = median_seconds(encode, args.iterations)
    with open(getattr(args, kind + "_ours"), "rb") as f:
        ours = decoded(f.read())
    theirs = decoded(out[0])
    rows["encode_" + kind] = {"seconds": seconds, "bytes": len(out[0]), "label": label,
                              "psnr": psnr(theirs, original), "ours_psnr": psnr(ours, original),
                              "ssim": ssim(theirs, original), "ours_ssim": ssim(ours, original)}
emit(rows)
