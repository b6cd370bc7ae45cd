#!/usr/bin/env bash
# Throughput and latency of `urlscheme serve` (release) under wrk (Debian's
# `wrk`: 2 threads, 64 connections on loopback), beside nginx serving the
# same bytes as static files (the ceiling), in one run. Prints two Markdown tables.
#
#   Benchmarks/serve-wrk.sh [SECONDS]     # each wrk run SECONDS long (default 5)
#   URLSCHEME_BIN=path/to/urlscheme Benchmarks/serve-wrk.sh   # another build (no build here)
#
# Table 1, under wrk: a cached /map answer, a cached asset thumbnail (of the
# tile's PNG, added to the store) and a cached raster tile (all from the
# server's answer cache), each run in turn with nginx serving its bytes from
# disk, three times (the ratio column: the median of the three ratios, as the
# machine's load drifts between runs; beside it the CPU time each spent per
# request, from /proc/PID/stat, server against nginx's workers: a measure
# the machine's load moves far less); /health (the HTTP path alone); a vector tile (read
# from the archive each time); and a miss of each of the three: a new URL
# every request (wrk's Lua varies the latitude, the thumbnail's size, the
# tile's x and y), so each renders (each row starts once the previous
# row's abandoned renders are done). RSS is the server's resident memory
# after the row and its peak (VmHWM).
#
# Table 2, one request at a time (no queue): 60 new URLs of each kind,
# the answer's time as the client sees it against the load time the
# server's own histogram (/metrics, urlscheme_load_seconds: the render
# through the URL Loading System) counts for the same requests; the
# difference is what serving adds to a render. Installs wrk and nginx when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
for tool in wrk nginx; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
        apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >/dev/null; }
done
if [ -n "${URLSCHEME_BIN:-}" ]; then
    bin=$URLSCHEME_BIN
else
    swift build -c release --product urlscheme >/dev/null
    bin="$(swift build -c release --show-bin-path)/urlscheme"
fi
archive=Tests/MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

port=$(free_port)
HOME="$work/home" XDG_CACHE_HOME="$work/cache" "$bin" serve --port "$port" --workers 2 --assets "$work/assets" --tiles "hel=$archive" >/dev/null 2>"$work/serve.log" &
pids+=($!)
server_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"
tile=/tiles/hel/14/9327/4742.png
mapquery="latitude=60.17&longitude=24.94&zoom=14&width=256&height=256&tiles=hel"
mkdir -p "$work/static"
curl -sf -o "$work/static/tile.png" "$base$tile"
asset=$(HOME="$work/home" XDG_CACHE_HOME="$work/cache" "$bin" add --assets "$work/assets" "$work/static/tile.png")
curl -sf -o "$work/static/map.png" "$base/map?$mapquery"
curl -sf -o "$work/static/thumbnail.png" "$base/asset?id=$asset&width=64"
front=$(free_port)
cat >"$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 2; pid $work/nginx.pid; error_log $work/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:$front; root $work/static; location / { add_header Cache-Control "public, max-age=86400"; } } }
CONF
"$(command -v nginx || echo /usr/sbin/nginx)" -c "$work/nginx.conf" -p "$work" -g "daemon off;" &
pids+=($!)
nginx_pid=$!
sleep 0.5

# The Lua scripts of the misses: a new URL per request, the two threads' counters apart.
lua() {  # lua NAME BODY: a wrk script whose request() returns the path BODY makes from n
    cat >"$work/$1.lua" <<LUA
local threads = 0
function setup(thread) threads = threads + 1; thread:set("first", threads * 1000000) end
function init() n = first end
function request() n = n + 1; return wrk.format("GET", $2) end
LUA
}
lua map "string.format('/map?latitude=%.7f&longitude=24.94&zoom=14&width=256&height=256&tiles=hel', 60.17 + n * 0.0000001)"
lua asset "string.format('/asset?id=$asset&width=%d&height=%d', 16 + n % 240, 16 + math.floor(n / 240) % 240)"
lua tile "string.format('/tiles/hel/14/%d/%d.png', 9300 + n % 64, 4700 + math.floor(n / 64) % 64)"

ticks() { for p in "$@"; do awk '{ print $14 + $15 }' "/proc/$p/stat"; done | awk '{ t += $1 } END { print t }'; }
nginx_workers() { pgrep -P "$nginx_pid" | tr '\n' ' '; }
memory() { awk '/^VmHWM/ { peak = $2 } /^VmRSS/ { now = $2 } END { printf "%d MB / %d MB", now / 1024, peak / 1024 }' "/proc/$server_pid/status"; }
measure() {  # measure URL [LUA]: sets rps p50 p99 errors
    local out
    if [ -n "${2:-}" ]; then out=$(wrk -t2 -c64 -d"${seconds}s" --latency -s "$work/$2.lua" "$1")
    else curl -s -o /dev/null "$1"; out=$(wrk -t2 -c64 -d"${seconds}s" --latency "$1"); fi
    rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' <<<"$out")
    requests=$(awk '/requests in/ { print $1 }' <<<"$out")
    p50=$(awk '$1 == "50%" { print $2 }' <<<"$out"); p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    errors=$(grep -oE "Non-2xx or 3xx responses: [0-9]+|Socket errors: .*" <<<"$out" | tr '\n' ' ' || true)
}
settle() {  # waits until the server renders nothing: a miss row leaves renders queued for clients wrk closed
    for _ in $(seq 600); do
        curl -s "$base/metrics" | awk '/^urlscheme_(loads_in_flight|queue_length) / { busy += $2 } END { exit busy > 0 }' && return
        sleep 0.1
    done
}
row() {  # row NAME URL [LUA]
    settle
    measure "$2" "${3:-}"
    echo "| $1 | $rps | $p50 | $p99 | - | - | $(memory) | ${errors:-none} |"
}
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
versus() {  # versus NAME URL FILE: the server and nginx on FILE's bytes in turn, three times (the machine's load drifts), medians
    local ours=() theirs=() ratios=() p50s=() p99s=() all_errors="" before workers ours_cpu=() theirs_cpu=() cpu_ratios=()
    local hz; hz=$(getconf CLK_TCK)
    for _ in 1 2 3; do
        workers=$(nginx_workers); curl -s -o /dev/null "http://127.0.0.1:$front/$3"
        before=$(ticks $workers); measure "http://127.0.0.1:$front/$3"; theirs+=("$rps")
        theirs_cpu+=("$(awk -v t="$(( $(ticks $workers) - before ))" -v n="$requests" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')")
        curl -s -o /dev/null "$2"
        before=$(ticks "$server_pid"); measure "$2"; ours+=("$rps"); p50s+=("$p50"); p99s+=("$p99"); all_errors+="$errors"
        ours_cpu+=("$(awk -v t="$(( $(ticks "$server_pid") - before ))" -v n="$requests" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')")
        ratios+=("$(awk -v a="$rps" -v b="${theirs[-1]}" 'BEGIN { printf "%.2f", a / b }')")
        cpu_ratios+=("$(awk -v a="${ours_cpu[-1]}" -v b="${theirs_cpu[-1]}" 'BEGIN { printf "%.2f", b / a }')")
    done
    echo "| $1 | $(echo "${ours[*]}" | median) | ${p50s[1]} | ${p99s[1]} | $(echo "${ratios[*]}" | median)× (nginx $(echo "${theirs[*]}" | median)/s; runs ${ratios[*]}) | $(echo "${cpu_ratios[*]}" | median)× ($(echo "${ours_cpu[*]}" | median) µs vs nginx $(echo "${theirs_cpu[*]}" | median) µs) | $(memory) | ${all_errors:-none} |"
}

echo "wrk -t2 -c64 -d${seconds}s --latency, release urlscheme serve --workers 2, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| answer | requests/s | p50 | p99 | × nginx on the same bytes (median of 3 alternations) | nginx's CPU per request ÷ the server's (median; µs each) | server RSS after / peak | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
versus "cached /map (256×256 PNG, $(stat -c %s "$work/static/map.png") bytes)" "$base/map?$mapquery" map.png
versus "cached asset thumbnail (width=64, $(stat -c %s "$work/static/thumbnail.png") bytes)" "$base/asset?id=$asset&width=64" thumbnail.png
versus "cached raster tile $tile ($(stat -c %s "$work/static/tile.png") bytes)" "$base$tile" tile.png
row "/health" "$base/health"
row "vector tile /data/hel/14/9327/4742.pbf (read per request)" "$base/data/hel/14/9327/4742.pbf"
row "/map miss (a new latitude each request)" "$base" map
row "asset thumbnail miss (a new size each request)" "$base" asset
row "raster tile miss (a new tile each request)" "$base" tile
settle
echo
echo "One request at a time, 60 new URLs of each (load $(cut -d' ' -f1-3 /proc/loadavg)):"
echo
python3 - "$port" "$asset" <<'PY'
import http.client, re, sys, time
port, asset = int(sys.argv[1]), sys.argv[2]
client = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

def get(path):
    client.request("GET", path)
    answer = client.getresponse()
    body = answer.read()
    return answer.status, body

def loads():
    text = get("/metrics")[1].decode()
    value = lambda name: float(re.search(rf"^{name} (\S+)$", text, re.M).group(1))
    return value("urlscheme_load_seconds_sum"), value("urlscheme_load_seconds_count")

kinds = [
    ("/map miss", lambda n: f"/map?latitude={60.16 + n * 1e-6:.6f}&longitude=24.94&zoom=14&width=256&height=256&tiles=hel"),
    ("asset thumbnail miss", lambda n: f"/asset?id={asset}&width={300 + n}&height={300 + n}&enlarge=true"),
    ("raster tile miss", lambda n: f"/tiles/hel/14/{9200 + n}/4600.png"),
]
print("| miss | answer, client's clock (mean) | load, server's histogram (mean) | serving adds |")
print("|---|---:|---:|---:|")
for name, path in kinds:
    total, count = loads()
    elapsed = 0.0
    for n in range(60):
        started = time.perf_counter()
        status, _ = get(path(n))
        elapsed += time.perf_counter() - started
        assert status == 200, (path(n), status)
    after, after_count = loads()
    assert after_count - count == 60, "every request is one load"
    answer_ms, load_ms = elapsed / 60 * 1000, (after - total) / 60 * 1000
    print(f"| {name} | {answer_ms:.2f} ms | {load_ms:.2f} ms | {answer_ms - load_ms:.2f} ms |")
PY
