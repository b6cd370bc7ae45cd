#!/usr/bin/env bash
# Opens `urlscheme serve`'s map viewer (`/`: Leaflet over /tiles/NAME/…) in
# headless Chromium and fails unless tiles loaded, none failed and the page
# logged no error; then saves a screenshot.
#
#   Scripts/check_viewer_in_browser.sh [SCREENSHOT.png]
#   URLSCHEME_BIN=.build/debug/urlscheme Scripts/check_viewer_in_browser.sh
#
# Builds `urlscheme` (release) unless URLSCHEME_BIN names one, serves the
# Helsinki fixture on a free loopback port with Debian's libjs-leaflet, and
# installs `chromium` and `libjs-leaflet` first when missing (then it needs
# root and the network, as .ci/run on a fresh machine has). The verdict comes
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
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
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
echo "$verdict ($(grep -c '"route":"tiles"' "$work/access.log") tile requests served)"
case "$verdict" in
    "viewer-check: ok, "*) ;;
    *) echo "check_viewer_in_browser: the viewer did not pass in Chromium (verdict: '${verdict:-none}')" >&2; exit 1 ;;
esac
mkdir -p "$(dirname "$screenshot")"
"${browser[@]}" --virtual-time-budget=60000 --screenshot="$(realpath -m "$screenshot")" "$page" 2>>"$work/chromium.log"
test -s "$screenshot" || { echo "check_viewer_in_browser: no screenshot written" >&2; exit 1; }
echo "screenshot: $screenshot"
