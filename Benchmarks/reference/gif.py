"""Reference side of `urlscheme-bench gif`: writes the input, an animated
800x450 GIF of 20 frames (deterministic: a gradient with shapes moving over
it, each frame quantised to its own 256-colour palette, saved by Pillow, which
stores each frame as the rectangle that changed), then times Pillow decoding
every frame to a composited RGBA image (seek, then convert("RGBA")), as our
side does through ImageDecoder.animation."""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import PIL  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

WIDTH, HEIGHT, FRAMES = 800, 450, 20


def make_animation(path):
    red = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    green = Image.linear_gradient("L").rotate(90).resize((WIDTH, HEIGHT))
    blue = Image.new("L", (WIDTH, HEIGHT), 96)
    background = Image.merge("RGB", (red, green, blue))
    frames = []
    for i in range(FRAMES):
        frame = background.copy()
        draw = ImageDraw.Draw(frame)
        for k in range(6):
            x = (i * (17 + 5 * k) + k * 131) % (WIDTH - 120)
            y = (i * (9 + 3 * k) + k * 71) % (HEIGHT - 120)
            draw.ellipse((x, y, x + 60 + 10 * k, y + 50 + 8 * k), fill=(40 * k % 256, 255 - 30 * k, (i * 12) % 256))
        draw.rectangle((0, HEIGHT - 30, (i + 1) * WIDTH // FRAMES, HEIGHT), fill=(250, 250, 250))
        frames.append(frame.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=50, loop=0)


args = common.parser(__doc__)
args.add_argument("--gif", required=True, help="where to write the input (our side decodes the same file)")
options = vars(args.parse_args())
make_animation(options["gif"])
with open(options["gif"], "rb") as f:
    data = f.read()


def decode():
    with Image.open(io.BytesIO(data)) as im:
        for i in range(im.n_frames):
            im.seek(i)
            im.convert("RGBA")


common.emit({"decode-animated-800x450": {
    "seconds": common.median_seconds(decode, options["iterations"]), "bytes": len(data),
    "label": "Pillow %s" % PIL.__version__}})
