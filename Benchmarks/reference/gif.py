"""Reference side of `urlscheme-bench gif`: writes the inputs, then times
Pillow decoding every frame of each to a composited RGBA image (seek, then
convert("RGBA")), as our side does through ImageDecoder.animation.

- an animated 800x450 GIF of 20 frames (deterministic: a gradient with shapes
  moving over it, each frame quantised to its own 256-colour palette, so each
  is stored whole with a local palette);
- an animated 1000x1000 GIF of 100 frames (the same drawing on one shared
  palette, so Pillow stores each frame as the rectangle that changed), for
  the memory row: our side reports its peak memory while decoding it."""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import PIL  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

WIDTH, HEIGHT, FRAMES = 800, 450, 20


def make_animation(path, width=WIDTH, height=HEIGHT, count=FRAMES, shared_palette=False):
    red = Image.linear_gradient("L").resize((width, height))
    green = Image.linear_gradient("L").rotate(90).resize((width, height))
    blue = Image.new("L", (width, height), 96)
    background = Image.merge("RGB", (red, green, blue))
    frames = []
    for i in range(count):
        frame = background.copy()
        draw = ImageDraw.Draw(frame)
        for k in range(6):
            x = (i * (17 + 5 * k) + k * 131) % (width - 120)
            y = (i * (9 + 3 * k) + k * 71) % (height - 120)
            draw.ellipse((x, y, x + 60 + 10 * k, y + 50 + 8 * k), fill=(40 * k % 256, 255 - 30 * k, (i * 12) % 256))
        draw.rectangle((0, height - 30, (i + 1) * width // count, height), fill=(250, 250, 250))
        if shared_palette and frames:
            frames.append(frame.quantize(palette=frames[0], dither=Image.Dither.NONE))
        else:
            frames.append(frame.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=50, loop=0)


args = common.parser(__doc__)
args.add_argument("--gif", required=True, help="where to write the 800x450 input (our side decodes the same file)")
args.add_argument("--big-gif", required=True, help="where to write the 1000x1000, 100-frame input")
options = vars(args.parse_args())
make_animation(options["gif"])
make_animation(options["big_gif"], 1000, 1000, 100, shared_palette=True)


def timed(path):
    with open(path, "rb") as f:
        data = f.read()

    def decode():
        with Image.open(io.BytesIO(data)) as im:
            for i in range(im.n_frames):
                im.seek(i)
                im.convert("RGBA")
    return {"seconds": common.median_seconds(decode, options["iterations"]), "bytes": len(data),
            "label": "Pillow %s" % PIL.__version__}


common.emit({"decode-animated-800x450": timed(options["gif"]),
             "decode-animated-1000x1000-100": timed(options["big_gif"])})
