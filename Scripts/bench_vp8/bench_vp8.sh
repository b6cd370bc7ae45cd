#!/usr/bin/env bash
# Lossy WebP decode of a 12 MP q80 photo: our VP8Decoder (planes + fancy
# upsampling to RGBA) against Pillow (libwebp inside) and dwebp (-ppm, SIMD),
# on the same file, medians of wall and CPU time. The row of record is
# `urlscheme-bench webp-lossy` (wall time, through WebPDecoder); this one
# gives CPU time too, which a loaded machine disturbs less.
#   Scripts/bench_vp8/bench_vp8.sh [iterations]
# Needs swiftc, python3 with Pillow and numpy, and dwebp (Debian `webp`).
set -euo pipefail
cd "$(dirname "$0")/../.."
iterations=${1:-7}
out=.build-bench-vp8
mkdir -p "$out"
flags=(-O -wmo -parse-as-library)
swiftc "${flags[@]}" -module-name Raster -emit-module -emit-module-path "$out/Raster.swiftmodule" \
    -emit-library -static -o "$out/libRaster.a" $(find Sources/Raster -name '*.swift')
swiftc "${flags[@]}" -enable-testing -module-name ImageCodecs -I "$out" -emit-module \
    -emit-module-path "$out/ImageCodecs.swiftmodule" -emit-library -static -o "$out/libImageCodecs.a" \
    $(find Sources/ImageCodecs -name '*.swift')
swiftc -O -I "$out" -L "$out" -lImageCodecs -lRaster Scripts/bench_vp8/main.swift -o "$out/bench-vp8" 2>&1 \
    | grep -v "Cannot export local symbol" || true
photo="$out/photo-4000x3000-q80.webp"
reference=$(python3 Scripts/bench_vp8/reference.py "$photo" "$iterations")
ours=$("$out/bench-vp8" "$photo" "$iterations")
python3 - "$ours" "$reference" <<'PY'
import json, sys
ours, ref = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for clock in ("wall", "cpu"):
    print("%-4s ours %.3f s  Pillow %.3f s (%.2fx)  dwebp %.3f s (%.2fx)" % (
        clock, ours[clock], ref["pillow"][clock], ours[clock] / ref["pillow"][clock],
        ref["dwebp"][clock], ours[clock] / ref["dwebp"][clock]))
print("libwebp %s in Pillow; goal <= 1.0x Pillow and <= 1.5x dwebp" % ref["libwebp"])
PY
