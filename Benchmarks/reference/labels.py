"""Reference side of `urlscheme-bench labels`: Pillow's ImageDraw.text (FreeType)
draws the same 2,000 names, same font file, 12 px, with a 1.5 px stroke as the
halo, onto a fresh 1024×1024 RGB image, baseline-left anchored at the same points;
and the same without halos (FreeType's stroker is most of the haloed time).

Arguments: the font file and the labels file (JSON [[text, x, y], ...]) that
LabelBenchmarks writes.
"""
import json

from common import emit, median_seconds, parser

SIZE, TEXT_SIZE, HALO = 1024, 12, 1.5
TEXT, HALO_COLOUR = (60, 60, 60), (255, 255, 255)


def main():
    p = parser(__doc__)
    p.add_argument("font")
    p.add_argument("labels")
    args = p.parse_args()
    import PIL
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.truetype(args.font, TEXT_SIZE, layout_engine=ImageFont.Layout.BASIC)
    labels = json.load(open(args.labels))

    def draw(halo):
        image = Image.new("RGB", (SIZE, SIZE), (255, 255, 255))
        d = ImageDraw.Draw(image)
        for text, x, y in labels:
            if halo:
                d.text((x, y), text, font=font, fill=TEXT, stroke_width=HALO, stroke_fill=HALO_COLOUR, anchor="ls")
            else:
                d.text((x, y), text, font=font, fill=TEXT, anchor="ls")

    label = "Pillow %s ImageDraw.text" % PIL.__version__
    emit({"pillow": {"seconds": median_seconds(lambda: draw(True), args.iterations), "label": label},
          "pillow_plain": {"seconds": median_seconds(lambda: draw(False), args.iterations), "label": label}})


if __name__ == "__main__":
    main()
