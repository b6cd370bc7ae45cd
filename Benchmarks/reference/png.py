"""Reference side of `urlscheme-bench png`: Pillow's PNG encoder at its default
level (6) and Python's zlib at level 6, on the same raw RGBA inputs."""
import io
import zlib

import PIL
import PIL.Image
from common import emit, load_rgba, median_seconds, parser

p = parser(__doc__)
p.add_argument("photo")
p.add_argument("map")
p.add_argument("photo_png", help="a level-6 PNG of the photo, decoded by both sides")
p.add_argument("map_png")
p.add_argument("zlib_out", help="where to write zlib's level-6 stream of the photo, for both sides to inflate")
args = p.parse_args()

rows = {}
for kind, path in (("photo", args.photo), ("map", args.map)):
    image = load_rgba(path).convert("RGB")  # opaque: both sides write RGB
    out = {}

    def encode():
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        out["bytes"] = len(buffer.getvalue())

    seconds = median_seconds(encode, args.iterations)
    rows["encode_" + kind] = {"seconds": seconds, "bytes": out["bytes"], "label": "Pillow %s" % PIL.__version__}

for kind, path in (("photo", args.photo_png), ("map", args.map_png)):
    encoded = open(path, "rb").read()

    def decode():
        image = PIL.Image.open(io.BytesIO(encoded))
        image.load()

    rows["decode_" + kind] = {"seconds": median_seconds(decode, args.iterations), "label": "Pillow %s" % PIL.__version__}

raw = open(args.photo, "rb").read()
size = {}


def deflate():
    size["bytes"] = len(zlib.compress(raw, 6))


rows["deflate_photo"] = {"seconds": median_seconds(deflate, args.iterations), "bytes": size["bytes"],
                         "label": "zlib %s (Python)" % zlib.ZLIB_RUNTIME_VERSION}
stream = zlib.compress(raw, 6)
open(args.zlib_out, "wb").write(stream)
rows["inflate_photo"] = {"seconds": median_seconds(lambda: zlib.decompress(stream), args.iterations),
                         "label": "zlib %s (Python)" % zlib.ZLIB_RUNTIME_VERSION}
emit(rows)
