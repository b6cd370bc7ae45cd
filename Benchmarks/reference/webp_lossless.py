"""Reference side of `urlscheme-bench webp-lossless`: makes the lossless WebP of
the photo with `cwebp -lossless` (Debian's webp package, libwebp's own encoder)
and times Pillow decoding it (libwebp inside) to RGBA."""
import io
import os
import subprocess
import tempfile

import PIL
import PIL.Image
from PIL import features
from common import emit, load_rgba, median_seconds, parser

p = parser(__doc__)
p.add_argument("photo", help="raw RGBA8 photo")
p.add_argument("width", type=int)
p.add_argument("height", type=int)
p.add_argument("out", help="where to write the lossless WebP both sides decode")
args = p.parse_args()

with tempfile.TemporaryDirectory() as work:
    png = os.path.join(work, "photo.png")
    load_rgba(args.photo, args.width, args.height).convert("RGB").save(png, compress_level=1)
    subprocess.run(["cwebp", "-quiet", "-lossless", png, "-o", args.out], check=True)

encoded = open(args.out, "rb").read()


def decode():
    image = PIL.Image.open(io.BytesIO(encoded))
    image.convert("RGBA")  # RGBA, as ours gives (libwebp decodes to RGBA directly for an RGBA request)


label = "Pillow %s (libwebp %s)" % (PIL.__version__, features.version("webp"))
emit({"decode-lossless-photo": {"seconds": median_seconds(decode, args.iterations), "bytes": len(encoded), "label": label}})
