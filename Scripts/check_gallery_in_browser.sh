#!/usr/bin/env bash
# Opens the `urlscheme gallery` page in a real browser (headless Chromium) and
# fails unless every image on it loaded (naturalWidth > 0) and the page logged
# no error; then saves a screenshot of the whole page.
#
#   Scripts/check_gallery_in_browser.sh [SCREENSHOT.png [GALLERY_DIR]]
#
# Builds `urlscheme` (release), runs `urlscheme gallery` into a fresh temporary
# directory (or checks the page already in GALLERY_DIR), and installs Debian's `chromium` first when it is missing (the
# script then needs root and the network, as .ci/run on a fresh machine has).
# The verdict comes from the page itself: its script writes
# "gallery-check: ok, N images, H px" (or "gallery-check: FAILED ...") into
# #gallery-check after the load event; Chromium's --dump-dom prints the DOM
# once the page is idle, and this script reads that line. Screenshot default:
# .build/gallery-check/gallery.png (the README's docs/images/gallery.png is made
# by passing that path).
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot=${1:-.build/gallery-check/gallery.png}
width=1280

if ! command -v chromium >/dev/null; then
    echo "== installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${2:-}" ]; then
    gallery=$(realpath "$2")
else
    swift build -c release --product urlscheme >/dev/null
    gallery="$work/gallery"
    # Its progress lines go to a log; the summary (or the whole log, on failure) is shown.
    "$(swift build -c release --show-bin-path)/urlscheme" gallery "$gallery" 2>"$work/gallery.log" || { cat "$work/gallery.log" >&2; exit 1; }
    tail -n 1 "$work/gallery.log"
fi

# Root cannot use Chromium's sandbox; the page is our own file, loaded from disk.
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions)
page="file://$gallery/index.html"
"${browser[@]}" --window-size="$width,1000" --virtual-time-budget=10000 --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.log" || {
    cat "$work/chromium.log" >&2
    echo "check_gallery_in_browser: chromium failed" >&2
    exit 1
}
verdict=$(grep -o 'id="gallery-check">[^<]*' "$work/dom.html" | sed 's/^id="gallery-check">//' || true)
echo "$verdict"
case "$verdict" in
    "gallery-check: ok, "*) ;;
    *) echo "check_gallery_in_browser: the page did not pass in Chromium (verdict: '${verdict:-none}')" >&2; exit 1 ;;
esac

height=$(sed -n 's/.*, \([0-9]*\) px$/\1/p' <<<"$verdict")
mkdir -p "$(dirname "$screenshot")"
"${browser[@]}" --window-size="$width,${height:-3000}" --screenshot="$(realpath -m "$screenshot")" "$page" 2>>"$work/chromium.log"
test -s "$screenshot" || { echo "check_gallery_in_browser: no screenshot written" >&2; exit 1; }
echo "screenshot: $screenshot (${width}x${height:-3000})"
