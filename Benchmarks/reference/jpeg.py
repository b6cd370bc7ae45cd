"""Reference side of `urlscheme-bench jpeg`: Pillow (libjpeg-turbo) encoding the
same raw images at q90/q70 4:2:0 and decoding the same JPEG files (full size and
with draft() at 1/4 scale), and the photo progressive at q90 with optimised
tables (save(progressive=True, optimize=True)). For each encode row it also reports the PSNR (RGB,
against the raw image) of Pillow's own file and of ours, both decoded by Pillow:
the issue's quality check (within 0.3 dB) and proof that Pillow reads our files."""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import PIL  # noqa: E402
from PIL import Image, ImageChops, ImageStat  # noqa: E402


def psnr(jpeg_bytes, original):
    """PSNR in dB of a JPEG (decoded by Pillow) against the original RGB image."""
    import math
    decoded = Image.open(io.BytesIO(jpeg_bytes)).convert("RGB")
    stat = ImageStat.Stat(ImageChops.difference(decoded, original).point(lambda v: v * v))
    mse = sum(stat.mean) / 3
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


args = common.parser(__doc__)
for image in ("photo", "map"):
    args.add_argument("--" + image)
    args.add_argument("--" + image + "-jpeg")
    for quality in (90, 70):
        args.add_argument("--%s-ours-q%d" % (image, quality))
args.add_argument("--photo-ours-progressive-q90")
options = vars(args.parse_args())
label = "Pillow %s" % PIL.__version__
rows = {}
for image in ("photo", "map"):
    rgb = common.load_rgba(options[image]).convert("RGB")
    for quality in (90, 70):
        size = [0]

        def encode(q=quality):
            out = io.BytesIO()
            rgb.save(out, "JPEG", quality=q, subsampling=2)
            size[0] = out.tell()
        seconds = common.median_seconds(encode, options["iterations"])
        out = io.BytesIO()
        rgb.save(out, "JPEG", quality=quality, subsampling=2)
        with open(options["%s_ours_q%d" % (image, quality)], "rb") as f:
            ours = f.read()
        rows["encode-q%d-%s" % (quality, image)] = {
            "seconds": seconds, "bytes": size[0], "label": label,
            "psnr": psnr(out.getvalue(), rgb), "ours_psnr": psnr(ours, rgb)}
    if image == "photo":
        size = [0]

        def encode_progressive():
            out = io.BytesIO()
            rgb.save(out, "JPEG", quality=90, subsampling=2, progressive=True, optimize=True)
            size[0] = out.tell()
        seconds = common.median_seconds(encode_progressive, options["iterations"])
        out = io.BytesIO()
        rgb.save(out, "JPEG", quality=90, subsampling=2, progressive=True, optimize=True)
        with open(options["photo_ours_progressive_q90"], "rb") as f:
            ours = f.read()
        rows["encode-progressive-q90-photo"] = {
            "seconds": seconds, "bytes": size[0], "label": label,
            "psnr": psnr(out.getvalue(), rgb), "ours_psnr": psnr(ours, rgb)}
    with open(options[image + "_jpeg"], "rb") as f:
        data = f.read()

    def decode():
        Image.open(io.BytesIO(data)).load()

    def decode_quarter():
        im = Image.open(io.BytesIO(data))
        im.draft("RGB", (im.width // 4, im.height // 4))
        im.load()
    rows["decode-q90-%s" % image] = {"seconds": common.median_seconds(decode, options["iterations"]), "label": label}
    rows["decode-quarter-%s" % image] = {"seconds": common.median_seconds(decode_quarter, options["iterations"]), "label": label}
common.emit(rows)
