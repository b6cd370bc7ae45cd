#!/usr/bin/env bash
# Throughput, latency and memory of `urlscheme serve` (release) under wrk
# (Debian's `wrk`: 2 threads, 64 connections on loopback), beside nginx
# serving the same bytes as static files (the ceiling). Prints a Markdown table.
#
#   Benchmarks/serve-wrk.sh [SECONDS]     # each run SECONDS long (default 5)
#
# Rows: a cached /map answer (from the server's answer cache), the same with
# --answer-cache 0 (the image cache in memory behind a URLSession task per
# request: the path before the answer cache), a cached asset thumbnail (of
# the tile's PNG, added to the store), a cached raster tile, a vector
# tile (bytes from the archive, no render), /health (the HTTP path alone), a
# raster tile miss (--no-cache: every request renders), and nginx serving the
# tile's PNG from disk. RSS is the server's resident memory
# after the run and its peak (VmHWM). Installs wrk and nginx when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
for tool in wrk nginx; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
        apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >/dev/null; }
done
swift build -c release --product urlscheme >/dev/null
bin="$(swift build -c release --show-bin-path)/urlscheme"
archive=Tests/MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start() {  # start PORT FLAGS…: a server, waited for
    local port=$1; shift
    HOME="$work/home" XDG_CACHE_HOME="$work/cache" "$bin" serve --port "$port" --assets "$work/assets" --tiles "hel=$archive" "$@" >/dev/null 2>"$work/serve-$port.log" &
    pids+=($!)
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && return; sleep 0.1; done
    echo "server on $port did not start" >&2; exit 1
}
memory() { awk '/^VmHWM/ { peak = $2 } /^VmRSS/ { now = $2 } END { printf "%d MB / %d MB", now / 1024, peak / 1024 }' "/proc/$1/status"; }
row() {  # row NAME URL PID
    curl -s -o /dev/null "$2"  # warm: the first answer renders
    local out; out=$(wrk -t2 -c64 -d"${seconds}s" --latency "$2")
    local rps p50 p99 errors
    rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' <<<"$out")
    p50=$(awk '$1 == "50%" { print $2 }' <<<"$out"); p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    errors=$(grep -oE "Non-2xx or 3xx responses: [0-9]+|Socket errors: .*" <<<"$out" | tr '\n' ' ' || true)
    echo "| $1 | $rps | $p50 | $p99 | $( [ -n "${3:-}" ] && memory "$3" || echo "-") | ${errors:-none} |"
}

cached=$(free_port); start "$cached" --workers 2
cached_pid=${pids[-1]}
miss=$(free_port); start "$miss" --workers 2 --no-cache
miss_pid=${pids[-1]}
loadpath=$(free_port); start "$loadpath" --workers 2 --answer-cache 0
loadpath_pid=${pids[-1]}
tile=/tiles/hel/14/9327/4742.png
mkdir -p "$work/static/tiles"
curl -s -o "$work/static/tiles/tile.png" "http://127.0.0.1:$cached$tile"
asset=$(HOME="$work/home" XDG_CACHE_HOME="$work/cache" "$bin" add --assets "$work/assets" "$work/static/tiles/tile.png")
front=$(free_port)
cat >"$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 2; pid $work/nginx.pid; error_log $work/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:$front; root $work/static; location / { add_header Cache-Control "public, max-age=86400"; } } }
CONF
"$(command -v nginx || echo /usr/sbin/nginx)" -c "$work/nginx.conf" -p "$work" -g "daemon off;" &
pids+=($!)
sleep 0.5

echo "wrk -t2 -c64 -d${seconds}s --latency, release urlscheme serve --workers 2, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| answer | requests/s | p50 | p99 | server RSS after / peak | errors |"
echo "|---|---:|---:|---:|---:|---|"
mapquery="latitude=60.17&longitude=24.94&zoom=14&width=256&height=256&tiles=hel"
row "cached /map (256×256 PNG)" "http://127.0.0.1:$cached/map?$mapquery" "$cached_pid"
row "cached /map, --answer-cache 0 (a URLSession load each)" "http://127.0.0.1:$loadpath/map?$mapquery" "$loadpath_pid"
row "cached asset thumbnail (width=64)" "http://127.0.0.1:$cached/asset?id=$asset&width=64" "$cached_pid"
row "cached raster tile $tile" "http://127.0.0.1:$cached$tile" "$cached_pid"
row "vector tile /data/hel/14/9327/4742.pbf" "http://127.0.0.1:$cached/data/hel/14/9327/4742.pbf" "$cached_pid"
row "/health" "http://127.0.0.1:$cached/health" "$cached_pid"
row "raster tile miss (--no-cache: each renders)" "http://127.0.0.1:$miss$tile" "$miss_pid"
row "nginx: the tile's PNG as a static file" "http://127.0.0.1:$front/tiles/tile.png"
