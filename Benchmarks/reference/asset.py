"""Reference side of `urlscheme-bench asset`: Pillow making a 256-pixel-wide
thumbnail of the same 4000x3000 JPEG file with draft() (libjpeg-turbo's scaled
decode) and thumbnail() (its defaults: bicubic, reducing_gap 2.0)."""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import PIL  # noqa: E402
from PIL import Image  # noqa: E402

args = common.parser(__doc__)
args.add_argument("--jpeg")
options = vars(args.parse_args())
with open(options["jpeg"], "rb") as f:
    data = f.read()


def thumbnail():
    im = Image.open(io.BytesIO(data))
    im.draft("RGB", (256, 192))
    im.thumbnail((256, 256))


common.emit({"thumbnail": {"seconds": common.median_seconds(thumbnail, options["iterations"]),
                           "label": "Pillow %s" % PIL.__version__}})
