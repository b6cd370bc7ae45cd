"""Reference side of `urlscheme-bench webp-animated`: writes the input, a
lossless animated WebP of 100 frames at 1000x1000 (deterministic: a gradient
with shapes moving over it, encoded by Pillow's writer, libwebp's
WebPAnimEncoder, which stores each frame as the rectangle that changed, with
blending), then times Pillow decoding every frame to a composited RGBA image
(libwebp's WebPAnimDecoder), as our side does through ImageDecoder.animation."""
import io
import math

import PIL
from PIL import Image, ImageDraw, ImageSequence, features
from common import emit, median_seconds, parser

SIZE, FRAMES = 1000, 100

p = parser(__doc__)
p.add_argument("out", help="where to write the input (our side decodes the same file)")
args = p.parse_args()

# A diagonal gradient, and over it a bar sweeping down, a square crossing and
# a clock hand turning: each frame changes a few rectangles.
base = Image.linear_gradient("L").resize((SIZE, SIZE))
background = Image.merge("RGB", (base, base.transpose(Image.Transpose.ROTATE_90), base.transpose(Image.Transpose.FLIP_LEFT_RIGHT)))
frames = []
for i in range(FRAMES):
    frame = background.copy()
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, i * 9, SIZE, i * 9 + 40), fill=(250, 240, 200))
    draw.rectangle((i * 8, 500, i * 8 + 120, 620), fill=(20, 90 + i, 200))
    angle = 2 * math.pi * i / FRAMES
    draw.line((500, 500, 500 + 300 * math.cos(angle), 500 + 300 * math.sin(angle)), fill=(0, 0, 0), width=9)
    frames.append(frame)
frames[0].save(args.out, save_all=True, append_images=frames[1:], duration=40, loop=0, lossless=True, method=0)
data = open(args.out, "rb").read()


def decode():
    with Image.open(io.BytesIO(data)) as im:
        for frame in ImageSequence.Iterator(im):
            frame.convert("RGBA")


label = "Pillow %s (libwebp %s)" % (PIL.__version__, features.version("webp"))
emit({"decode-animated-1000x1000-100": {"seconds": median_seconds(decode, args.iterations), "bytes": len(data), "label": label}})
