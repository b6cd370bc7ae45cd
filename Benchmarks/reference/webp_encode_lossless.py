"""Reference side of `urlscheme-bench webp-encode-lossless`: libwebp's lossless
encoder through Pillow, in process, at the settings `cwebp -lossless -z 6
-exact` uses (libwebp's lossless preset 6: method 4, quality 75; transparent
pixels kept exact), on the raw RGBA photo and map images."""
import io

import PIL
import PIL.Image
from PIL import features
from common import emit, load_rgba, median_seconds, parser

p = parser(__doc__)
p.add_argument("photo", help="raw RGBA8 photo")
p.add_argument("map", help="raw RGBA8 map")
args = p.parse_args()

label = "libwebp %s -z 6 (Pillow %s)" % (features.version("webp"), PIL.__version__)
rows = {}
for kind, path in (("photo", args.photo), ("map", args.map)):
    image = load_rgba(path)
    size = [0]

    def encode():
        out = io.BytesIO()
        image.save(out, "WEBP", lossless=True, method=4, quality=75, exact=True)
        size[0] = out.tell()

    rows["encode_" + kind] = {"seconds": median_seconds(encode, args.iterations), "bytes": size[0], "label": label}
emit(rows)
