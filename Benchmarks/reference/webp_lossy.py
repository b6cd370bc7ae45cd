"""Reference side of `urlscheme-bench webp-lossy`: makes the lossy WebP of the
photo (Pillow's writer, libwebp's encoder, quality 80), then times Pillow
decoding it (libwebp inside) to RGBA, and `dwebp -ppm` (Debian's webp
package, libwebp with its SIMD, one thread) writing the RGB picture to
/dev/null; dwebp's time includes starting its process, a few milliseconds."""
import io
import subprocess
import time

import PIL
import PIL.Image
from PIL import features
from common import emit, load_rgba, median_seconds, parser

p = parser(__doc__)
p.add_argument("photo", help="raw RGBA8 photo")
p.add_argument("width", type=int)
p.add_argument("height", type=int)
p.add_argument("out", help="where to write the lossy WebP both sides decode")
args = p.parse_args()

load_rgba(args.photo, args.width, args.height).convert("RGB").save(args.out, "WEBP", quality=80)
encoded = open(args.out, "rb").read()


def decode():
    image = PIL.Image.open(io.BytesIO(encoded))
    image.convert("RGBA")  # RGBA, as ours gives


def dwebp():
    subprocess.run(["dwebp", "-quiet", args.out, "-ppm", "-o", "/dev/null"], check=True)


label = "Pillow %s (libwebp %s)" % (PIL.__version__, features.version("webp"))
rows = {"decode-lossy-photo": {"seconds": median_seconds(decode, args.iterations), "bytes": len(encoded), "label": label}}
try:
    rows["decode-lossy-photo-dwebp"] = {"seconds": median_seconds(dwebp, args.iterations), "bytes": len(encoded),
                                        "label": "dwebp %s (-ppm, SIMD, one thread)" % features.version("webp")}
except (OSError, subprocess.CalledProcessError):
    pass  # no dwebp: its row is left out
emit(rows)
