#!/usr/bin/env bash
# Runs deploy/nginx/nginx.conf (ports and paths replaced) on loopback in front
# of two `urlscheme serve` instances and checks, through nginx:
#   - a second request for a tile is a cache HIT, with the same bytes;
#   - an error (400, 404) is never kept: asked twice, it reaches an instance twice;
#   - an expired answer is revalidated with a 304 from an instance (REVALIDATED);
#   - 100 concurrent requests for one new URL make one render (proxy_cache_lock);
#   - both instances serve;
#   - with one instance killed, no request is lost (proxy_next_upstream).
#
#   deploy/nginx/check.sh            # builds urlscheme (release) first
#   URLSCHEME_BIN=.build/debug/urlscheme deploy/nginx/check.sh
#
# Installs Debian's nginx when it is missing (then it needs root and the
# network, as .ci/run on a fresh machine has).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "== installing Debian's nginx"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "${URLSCHEME_BIN:-}" ]; then
    swift build -c release --product urlscheme >/dev/null
    URLSCHEME_BIN="$(swift build -c release --show-bin-path)/urlscheme"
fi
archive=Tests/MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
front=$(free_port); first=$(free_port); second=$(free_port)

# Two instances on one asset store (its path is part of their ETags, so they agree), no cache of their own
# (every answer nginx does not keep is a render), max-age 3 s (to see a revalidation).
for port in "$first" "$second"; do
    HOME="$work" "$URLSCHEME_BIN" serve --port "$port" --trust-proxy --no-cache --max-age 3 --assets "$work/assets" \
        --tiles "hel=$archive" >"$work/access-$port.log" 2>"$work/serve-$port.log" &
    pids+=($!)
done
instance_pid=("${pids[0]}" "${pids[1]}")
for port in "$first" "$second"; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
    curl -sf "http://127.0.0.1:$port/health" >/dev/null || { cat "$work/serve-$port.log" >&2; echo "nginx check: instance on $port did not start" >&2; exit 1; }
done

# The configuration as shipped, on these ports and in the work directory.
# Workers run as root here (as the master is, in CI) so they can write the work directory.
sed -e "s|127.0.0.1:8080|127.0.0.1:$front|; s|127.0.0.1:8081|127.0.0.1:$first|; s|127.0.0.1:8082|127.0.0.1:$second|" \
    -e "s|/var/cache/nginx/urlscheme|$work/cache|; s|/run/urlscheme-nginx.pid|$work/nginx.pid|" \
    -e "s|/var/log/nginx/|$work/|" deploy/nginx/nginx.conf >"$work/nginx.conf"
if [ "$(id -u)" = 0 ]; then sed -i '1i user root;' "$work/nginx.conf"; fi
mkdir -p "$work/cache"
"$nginx_bin" -t -q -c "$work/nginx.conf" -p "$work" -g "daemon off;"
"$nginx_bin" -c "$work/nginx.conf" -p "$work" -g "daemon off;" 2>"$work/nginx.stderr" &
pids+=($!)
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$front/health" >/dev/null && break; sleep 0.1; done

base="http://127.0.0.1:$front"
# status and cache status of one GET through nginx; body to $2 if given
ask() { curl -s -o "${2:-/dev/null}" -D "$work/head" -w '%{http_code}' "$base$1"; echo " $(tr -d '\r' <"$work/head" | sed -n 's/^X-Cache-Status: //Ip')"; }
# The instances write their access logs in batches, each line within 200 ms (AccessLogWriter).
settle() { sleep 0.3; }
renders() { settle; cat "$work"/access-*.log | grep -cF "\"target\":\"$1\"" || true; }
fail() { echo "nginx check: $*" >&2; echo "--- nginx access log" >&2; tail -n 20 "$work/urlscheme-access.log" >&2 || true; exit 1; }

tile=/tiles/hel/14/9327/4742.png
[ "$(ask $tile "$work/one.png")" = "200 MISS" ] || fail "first $tile: $(ask $tile) (expected 200 MISS)"
[ "$(ask $tile "$work/two.png")" = "200 HIT" ] || fail "second $tile is not a cache HIT"
cmp -s "$work/one.png" "$work/two.png" || fail "the HIT's bytes differ from the MISS's"
echo "a second request is a HIT: $tile, $(stat -c %s "$work/two.png") bytes, $(renders $tile) render"

for bad in /tiles/hel/3/8/0.png /tiles/nowhere/1/0/0.png; do
    answers="$(ask $bad) / $(ask $bad)"
    case "$answers" in
        "400 MISS / 400 MISS" | "404 MISS / 404 MISS") ;;
        *) fail "$bad answered '$answers': an error must reach an instance every time (never cached)" ;;
    esac
    [ "$(renders $bad)" = 2 ] || fail "$bad reached the instances $(renders $bad) times, not 2"
done
echo "errors are not cached: 400 and 404 asked twice reach an instance twice"

sleep 5  # past max-age 3 (nginx counts from when the answer began; a debug render takes over a second)
revalidated=$(ask $tile)
[ "$revalidated" = "200 REVALIDATED" ] || fail "$tile after max-age: '$revalidated' (expected 200 REVALIDATED)"
settle; grep -F "\"target\":\"$tile\"" "$work"/access-*.log | grep -q '"status":304' || fail "no instance answered the revalidation with 304"
[ "$(ask $tile)" = "200 HIT" ] || fail "$tile after its revalidation is not a HIT"
echo "an expired answer is revalidated: a 304 from an instance, REVALIDATED through nginx, then HIT again"

one=/tiles/hel/14/9327/4741.png
seq 100 | xargs -P 100 -I{} curl -s -o /dev/null -w '%{http_code}\n' "$base$one" >"$work/concurrent"
[ "$(grep -c '^200$' "$work/concurrent")" = 100 ] || fail "100 concurrent requests: $(sort "$work/concurrent" | uniq -c | tr '\n' ' ')"
[ "$(renders $one)" = 1 ] || fail "100 concurrent requests for $one made $(renders $one) renders, not 1"
echo "100 concurrent requests for one new URL: 100 answers, 1 render"

for z in 0 1 2 3 4 5; do ask "/tiles/hel/$z/0/0.png" >/dev/null; done
settle
for port in "$first" "$second"; do
    [ "$(grep -c '"route":"tiles"' "$work/access-$port.log")" -gt 0 ] || fail "the instance on $port served nothing"
done
echo "both instances serve: $(grep -c '"route":"tiles"' "$work/access-$first.log") and $(grep -c '"route":"tiles"' "$work/access-$second.log") tile answers"

kill "${instance_pid[0]}"; wait "${instance_pid[0]}" 2>/dev/null || true
lost=0
for x in 0 1 2 3 4 5 6 7; do
    status=$(curl -s -o /dev/null -w '%{http_code}' "$base/tiles/hel/3/$x/2.png")
    [ "$status" = 200 ] || lost=$((lost + 1))
done
[ "$lost" = 0 ] || fail "with one instance killed, $lost of 8 requests failed"
echo "one instance killed: 8 new requests, none lost"
echo "nginx check: ok"
