#!/usr/bin/env bash
# Makes the VP8 decoder's fixtures and their reference checksums.
#   Tests/ImageCodecsTests/Fixtures/webp-vp8/make_vp8_fixtures.sh /path/to/libwebp-test-data
# 1. Copies a subset of libwebp's vp80-* conformance vectors (one or more per
#    feature: README.md) and their lines of libwebp_tests.md5 (MD5 of dwebp's
#    -pgm planes and -ppm RGB output).
# 2. Encodes, with cwebp, what the vectors do not exercise (odd and tiny
#    sizes, sharpness, per-segment filter levels, the simple filter with
#    segments, the largest coefficients), and records the MD5 of `dwebp -pgm`
#    and `dwebp -ppm` for each. Needs Debian's `webp` package (cwebp, dwebp).
set -euo pipefail
vectors=${1:?usage: make_vp8_fixtures.sh LIBWEBP_TEST_DATA_FOLDER}
cd "$(dirname "$0")"
subset=(
  vp80-00-comprehensive-001 vp80-00-comprehensive-003 vp80-00-comprehensive-005
  vp80-00-comprehensive-006 vp80-00-comprehensive-007 vp80-00-comprehensive-013
  vp80-00-comprehensive-015 vp80-00-comprehensive-016 vp80-00-comprehensive-017
  vp80-01-intra-1411 vp80-01-intra-1416 vp80-02-inter-1418
  vp80-03-segmentation-1410 vp80-03-segmentation-1413 vp80-03-segmentation-1425
  vp80-03-segmentation-1436 vp80-04-partitions-1405 vp80-05-sharpness-1430
  vp80-05-sharpness-1438 vp80-05-sharpness-1443
)
: > checksums.md5
for name in "${subset[@]}"; do
  cp "$vectors/$name.webp" .
  grep -E " $name\.webp\.(pgm|ppm)\$" "$vectors/libwebp_tests.md5" >> checksums.md5
done

# A 352×288 source picture: a conformance vector decoded by dwebp.
source=$(mktemp --suffix=.ppm)
trap 'rm -f "$source"' EXIT
dwebp -quiet "$vectors/vp80-03-segmentation-1427.webp" -ppm -o "$source"
encode() {  # name, cwebp options...
  local name=$1; shift
  cwebp -quiet "$@" "$source" -o "cwebp-$name.webp"
}
encode sharpness5-segments-101x67 -q 55 -segments 4 -sns 90 -f 60 -sharpness 5 -crop 31 17 101 67
encode simple-filter-sharpness2-33x19 -q 35 -nostrong -f 45 -sharpness 2 -segments 3 -crop 200 100 33 19
encode strong-filter-sharpness7-63x47 -q 8 -strong -f 100 -sharpness 7 -crop 120 90 63 47
encode quality100-41x29 -q 100 -m 6 -crop 5 5 41 29
encode single-pixel -q 80 -crop 100 100 1 1
encode one-segment-2x3 -q 70 -segments 1 -crop 7 9 2 3
for file in cwebp-*.webp; do
  echo "$(dwebp -quiet "$file" -pgm -o - | md5sum | cut -d' ' -f1)  $file.pgm" >> checksums.md5
  echo "$(dwebp -quiet "$file" -ppm -o - | md5sum | cut -d' ' -f1)  $file.ppm" >> checksums.md5
done
