#!/usr/bin/env bash
# Opens `urlscheme serve`'s map viewer (`/`: Leaflet over /tiles/NAME/…) in
# headless Chromium and fails unless tiles loaded, none failed and the page
# logged no error; then saves a screenshot. Then MapLibre GL JS, on a page of
# another origin (Scripts/browser/maplibre-gl-check.html), draws the server's
# vector style /styles/hel/style.json; the check fails unless it draws without
# an error and differs from the server's own /styles/hel/static rendering of
# the same view in at most 10 % of pixels (a channel off by more than 24).
#
#   Scripts/check_viewer_in_browser.sh [SCREENSHOT.png]
#   URLSCHEME_BIN=.build/debug/urlscheme Scripts/check_viewer_in_browser.sh
#
# Builds `urlscheme` (release) unless URLSCHEME_BIN names one, serves the
# Helsinki fixture on a free loopback port with Debian's libjs-leaflet, and
# installs `chromium` and `libjs-leaflet` first when missing (then it needs
# root and the network, as .ci/run on a fresh machine has). MapLibre GL JS
# 5.3.0 comes from PyPI's `maplibre` 0.3.6 wheel, which bundles it (kept in
# .build/maplibre-gl/), or from MAPLIBRE_GL_DIR (maplibre-gl.js and .css). The verdict comes
# from the page: its script writes "viewer-check: ok, N tiles of hel" (or
# "viewer-check: FAILED …") into #viewer-check; Chromium's --dump-dom prints
# the DOM once the page is idle, and this script reads that line.
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot=${1:-.build/viewer-check/viewer.png}

missing=()
command -v chromium >/dev/null || missing+=(chromium)
[ -f /usr/share/javascript/leaflet/leaflet.js ] || missing+=(libjs-leaflet)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing Debian's ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ -z "${URLSCHEME_BIN:-}" ]; then
    swift build -c release --product urlscheme >/dev/null
    URLSCHEME_BIN="$(swift build -c release --show-bin-path)/urlscheme"
fi

work=$(mktemp -d)
server=""
pids=()
trap 'for pid in $server "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOME="$work" "$URLSCHEME_BIN" serve --port "$port" --no-cache --assets "$work/assets" --leaflet /usr/share/javascript/leaflet \
    --tiles hel=Tests/MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles >"$work/access.log" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done

# Root cannot use Chromium's sandbox; the page is our own server's, on loopback.
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions --window-size=800,600)
page="http://127.0.0.1:$port/"
"${browser[@]}" --virtual-time-budget=60000 --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.log" || {
    cat "$work/chromium.log" >&2; echo "check_viewer_in_browser: chromium failed" >&2; exit 1
}
verdict=$(grep -o 'id="viewer-check">[^<]*' "$work/dom.html" | sed 's/^id="viewer-check">//' || true)
sleep 0.3  # the access log is written in batches, each line within 200 ms
echo "$verdict ($(grep -c '"route":"tiles"' "$work/access.log") tile requests served)"
case "$verdict" in
    "viewer-check: ok, "*) ;;
    *) echo "check_viewer_in_browser: the viewer did not pass in Chromium (verdict: '${verdict:-none}')" >&2; exit 1 ;;
esac
mkdir -p "$(dirname "$screenshot")"
"${browser[@]}" --virtual-time-budget=60000 --screenshot="$(realpath -m "$screenshot")" "$page" 2>>"$work/chromium.log"
test -s "$screenshot" || { echo "check_viewer_in_browser: no screenshot written" >&2; exit 1; }
echo "screenshot: $screenshot"

echo "== MapLibre GL JS drawing /styles/hel/style.json from another origin"
gl=${MAPLIBRE_GL_DIR:-.build/maplibre-gl}
if [ ! -f "$gl/maplibre-gl.js" ]; then
    python3 -m pip download --quiet --no-deps maplibre==0.3.6 -d "$work/wheel"
    mkdir -p "$gl"
    unzip -q -j -o "$work"/wheel/maplibre-0.3.6-*.whl maplibre/srcjs/maplibre-gl.js maplibre/srcjs/maplibre-gl.css -d "$gl"
fi
mkdir -p "$work/page"
cp "$gl/maplibre-gl.js" "$gl/maplibre-gl.css" Scripts/browser/maplibre-gl-check.html "$work/page/"
python3 Scripts/browser/result_server.py "$work/page" "$work/gl-result.txt" "$work/page-port" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/page-port" ] && break; sleep 0.1; done
# Chromium runs until the page has POSTed its verdict (real time, not virtual:
# GL JS parses tiles in workers), at most 120 s.
"${browser[@]}" --user-data-dir="$work/profile" \
    "http://127.0.0.1:$(cat "$work/page-port")/maplibre-gl-check.html?server=http://127.0.0.1:$port&tiles=hel" 2>>"$work/chromium.log" &
pids+=($!)
for _ in $(seq 600); do [ -s "$work/gl-result.txt" ] && break; sleep 0.2; done
gl_verdict=$(head -n 1 "$work/gl-result.txt" 2>/dev/null || true)
echo "$gl_verdict"
tail -n +2 "$work/gl-result.txt" 2>/dev/null | sed 's/^data:image\/png;base64,//' | base64 -d >"$(dirname "$screenshot")/maplibre-gl.png" 2>/dev/null || true
case "$gl_verdict" in
    "gl-check: ok, "*)
        percent=$(echo "$gl_verdict" | sed -E 's/.* ([0-9.]+) % of pixels differ.*/\1/')
        if ! python3 -c "import sys; sys.exit(0 if float('$percent') <= 10 else 1)"; then
            echo "check_viewer_in_browser: MapLibre GL JS's map differs from ours in $percent % of pixels (at most 10 % allowed)" >&2; exit 1
        fi ;;
    *) echo "check_viewer_in_browser: MapLibre GL JS did not draw the style (verdict: '${gl_verdict:-none in 120 s}')" >&2; exit 1 ;;
esac
echo "MapLibre GL JS's map: $(dirname "$screenshot")/maplibre-gl.png"
