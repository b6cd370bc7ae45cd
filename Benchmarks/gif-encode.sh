#!/usr/bin/env bash
# GIF (and animated WebP) out of an animated GIF resized to 320 px, end to
# end as a user runs each tool, one process per run: our release `urlscheme get
# asset://?id=…&width=320` against gifsicle (`--resize-width 320`, and with -O2)
# and Pillow (every frame composited, resized with LANCZOS, quantised to 256
# colours, saved). The input is Benchmarks/reference/gif.py's drawing, 100
# frames of 800×450, each with its own palette. Prints the median time of
# RUNS runs and the output size of each.
#   swift build -c release --product urlscheme && Benchmarks/gif-encode.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/in.gif" <<'PY'
import sys
# gif.py's drawing, without running its own benchmark.
path = "Benchmarks/reference/gif.py"
scope = {"__file__": path, "__name__": "gif_reference"}
exec(compile(open(path).read().split("\nargs = common.parser")[0], path, "exec"), scope)
scope["make_animation"](sys.argv[1], 800, 450, 100)
PY
store="$work/store"
bin=.build/release/urlscheme
id=$("$bin" add "$work/in.gif" --assets "$store" | tr -d '[:space:]')
median() {  # command...: the median wall time in ms of $runs runs
    local times=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N); "$@" >/dev/null 2>&1; end=$(date +%s%N)
        times+=($(( (end - start) / 1000000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}
pillow() {
    python3 - "$1" "$2" <<'PY'
import sys
from PIL import Image
frames, durations = [], []
with Image.open(sys.argv[1]) as im:
    for i in range(im.n_frames):
        im.seek(i)
        frame = im.convert("RGBA")
        frame = frame.resize((320, frame.height * 320 // frame.width), Image.Resampling.LANCZOS)
        frames.append(frame.quantize(256, method=Image.Quantize.FASTOCTREE))
        durations.append(im.info.get("duration", 100))
frames[0].save(sys.argv[2], save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False)
PY
}
echo "input: $(stat -c %s "$work/in.gif") B, 100 frames of 800×450; median of $runs runs"
printf '| tool | ms | bytes |\n|---|---:|---:|\n'
ours() { "$bin" get "asset://?id=$id&width=320&format=$1" --no-cache --assets "$store" -o "$work/ours.$1"; }
printf '| urlscheme get …&width=320&format=gif | %s | %s |\n' "$(median ours gif)" "$(stat -c %s "$work/ours.gif")"
printf '| urlscheme get …&width=320&format=webp | %s | %s |\n' "$(median ours webp)" "$(stat -c %s "$work/ours.webp")"
printf '| gifsicle --resize-width 320 | %s | %s |\n' "$(median gifsicle --resize-width 320 "$work/in.gif" -o "$work/gifsicle.gif")" "$(stat -c %s "$work/gifsicle.gif")"
printf '| gifsicle -O2 --resize-width 320 | %s | %s |\n' "$(median gifsicle -O2 --resize-width 320 "$work/in.gif" -o "$work/gifsicle-O2.gif")" "$(stat -c %s "$work/gifsicle-O2.gif")"
printf '| Pillow %s (LANCZOS, FASTOCTREE) | %s | %s |\n' "$(python3 -c 'import PIL; print(PIL.__version__)')" "$(median pillow "$work/in.gif" "$work/pillow.gif")" "$(stat -c %s "$work/pillow.gif")"
