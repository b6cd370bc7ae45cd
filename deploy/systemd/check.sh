#!/usr/bin/env bash
# Checks deploy/systemd/urlscheme@.service: `systemd-analyze verify` finds no
# problem in it (with ExecStart pointed at the built binary), then its
# command runs with exactly the unit's Environment= lines (%i a free port, %S
# and %C temporary folders; no systemd needed): /health answers, a map renders
# and its cache entry lands, private, in the instance's cache folder, and
# SIGTERM drains it to exit status 0 within the unit's TimeoutStopSec.
#
#   deploy/systemd/check.sh
#   URLSCHEME_BIN=.build/debug/urlscheme deploy/systemd/check.sh
#
# Installs Debian's `systemd` (for systemd-analyze) when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
unit=deploy/systemd/urlscheme@.service

if ! command -v systemd-analyze >/dev/null; then
    echo "== installing Debian's systemd (for systemd-analyze)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null
fi
if [ -z "${URLSCHEME_BIN:-}" ]; then
    swift build -c release --product urlscheme >/dev/null
    URLSCHEME_BIN="$(swift build -c release --show-bin-path)/urlscheme"
fi
binary=$(realpath "$URLSCHEME_BIN")

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill -9 "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

# 1. systemd's own reading of the unit: no unknown key, no bad value.
sed "s|^ExecStart=/usr/local/bin/urlscheme|ExecStart=$binary|" "$unit" >"$work/urlscheme@.service"
systemd-analyze verify "$work/urlscheme@8081.service" >"$work/verify.log" 2>&1 || { cat "$work/verify.log" >&2; exit 1; }
if [ -s "$work/verify.log" ]; then cat "$work/verify.log" >&2; echo "deploy/systemd/check.sh: systemd-analyze found problems" >&2; exit 1; fi
echo "systemd-analyze verify: no problems"

# 2. The unit's command with the unit's environment, as systemd would start it.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/state/urlscheme" "$work/cache/urlscheme/$port"
environment=()
while IFS= read -r line; do
    value=${line#Environment=}
    value=${value//%i/$port}
    value=${value//%S/$work/state}
    value=${value//%C/$work/cache}
    environment+=("$value")
done < <(grep '^Environment=' "$unit")
command=$(grep '^ExecStart=' "$unit" | sed "s|^ExecStart=/usr/local/bin/urlscheme|$binary|")
stop_seconds=$(grep '^TimeoutStopSec=' "$unit" | cut -d= -f2)
env -i PATH="$PATH" "${environment[@]}" $command >"$work/access.log" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
test "$(curl -s "http://127.0.0.1:$port/health")" = "ok" || { cat "$work/serve.log" >&2; echo "deploy/systemd/check.sh: /health did not answer on port $port" >&2; exit 1; }
status=$(curl -s -o "$work/map.png" -w '%{http_code}' "http://127.0.0.1:$port/map?latitude=60.17&longitude=24.94&zoom=5&width=64&height=64")
test "$status" = 200 || { echo "deploy/systemd/check.sh: /map answered $status" >&2; exit 1; }
cache="$work/cache/urlscheme/$port/URLSchemeKit"
entries=$(find "$cache" -type f 2>/dev/null | wc -l)
test "$entries" -gt 0 || { echo "deploy/systemd/check.sh: nothing was cached under the unit's cache folder $cache" >&2; exit 1; }
test "$(stat -c %a "$cache/ImageURLCache")" = 700 || { echo "deploy/systemd/check.sh: $cache/ImageURLCache is not private (0700)" >&2; exit 1; }
test -d "$work/state/urlscheme/assets" || { echo "deploy/systemd/check.sh: the asset store is not in the unit's state folder" >&2; exit 1; }
echo "serving on port $port (the instance name): /health ok, /map 200, $entries cache files in the instance's cache folder (0700)"
kill -TERM "$server"
for _ in $(seq $((stop_seconds * 10))); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server" 2>/dev/null; then echo "deploy/systemd/check.sh: still running ${stop_seconds} s after SIGTERM" >&2; exit 1; fi
wait "$server" && code=0 || code=$?
server=""
test "$code" = 0 || { cat "$work/serve.log" >&2; echo "deploy/systemd/check.sh: exit status $code after SIGTERM" >&2; exit 1; }
echo "SIGTERM: drained, exit status 0"
