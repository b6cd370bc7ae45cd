#!/bin/sh
# Builds the JPEG decoder libFuzzer target (with AddressSanitizer) into .build/fuzz/jpeg.
# The Raster and ImageCodecs sources are compiled as one module (their `import Raster`
# lines removed), so no SwiftPM change is needed.
# Run:  Fuzz/jpeg/build.sh && .build/fuzz/jpeg -max_total_time=600 -rss_limit_mb=2048 Fuzz/jpeg/corpus
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/.build/fuzz/jpeg-src"
rm -rf "$work" && mkdir -p "$work"
for f in "$root"/Sources/Raster/Core/*.swift "$root"/Sources/ImageCodecs/Core/*.swift "$root"/Sources/ImageCodecs/JPEG/*.swift; do
    sed '/^import Raster$/d' "$f" > "$work/$(basename "$f")"
done
cp "$root/Fuzz/jpeg/FuzzJPEGDecoder.swift" "$work/"
swiftc -O -parse-as-library -sanitize=fuzzer,address -module-name JPEGFuzz "$work"/*.swift -o "$root/.build/fuzz/jpeg"
echo "built $root/.build/fuzz/jpeg"
