#!/usr/bin/env bash
# Runs the HTTP caching conformance suite (http-tests/cache-tests, the one
# compared at cache-tests.fyi) against HTTPCacheURLProtocol as a private cache:
#
#   suite CLI ──► urlscheme-bench cache-proxy ──► URLSession + HTTPCacheURLProtocol ──► suite server
#
#   Benchmarks/cache-tests.sh SUITE_DIR              the whole suite, then a summary
#   Benchmarks/cache-tests.sh SUITE_DIR TEST_ID ...  each test alone, with the
#                                                   suite's request/response dump
#
# SUITE_DIR is a copy of the suite outside this repository (its code is not
# ours and stays out), e.g.
#   git clone https://github.com/http-tests/cache-tests /tmp/cache-tests
# It needs node ≥ 18 and no npm package: only the four interim-response tests
# import `undici` (≥ 6, from npm), and without it they end in "Cannot find
# package 'undici'"; they do not apply here (browser_skip, and URLSession does
# not report 1xx responses).
#
# The suite's CLI does not run its `browser_only` tests (private-cache rules:
# `private`, `s-maxage` ignored, `immutable`); a second pass runs them through
# the suite's own runner in browser mode. Results, the proxy's log (one line
# per request with its Cache-Status) and the summary are written to OUT_DIR
# (default .build/cache-tests). CONFIGURATION=release builds in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=$(cd "${1:?usage: Benchmarks/cache-tests.sh SUITE_DIR [TEST_ID ...]}" && pwd)
shift
[ -f "$suite/test-engine/cli.mjs" ] || { echo "$suite is not a cache-tests checkout (no test-engine/cli.mjs)" >&2; exit 2; }
command -v node >/dev/null || { echo "node is required (apt-get install nodejs)" >&2; exit 2; }
out=${OUT_DIR:-.build/cache-tests}
mkdir -p "$out"
out=$(cd "$out" && pwd)
configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --product urlscheme-bench
bench=$(swift build -c "$configuration" --show-bin-path)/urlscheme-bench

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The suite's origin server, on a free port (it binds the port it is given).
for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + (RANDOM % 20000)))
    npm_config_protocol=http npm_config_port=$port npm_config_pidfile="$work/server.pid" \
        node "$suite/test-engine/server/server.mjs" >"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 50); do
        grep -q Listening "$work/server.log" 2>/dev/null && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    if grep -q Listening "$work/server.log"; then pids+=("$server"); break; fi
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    [ "$attempt" = 10 ] && { cat "$work/server.log" >&2; exit 1; }
done

# The proxy, on a port the system picks (it prints the URL it listens on).
"$bench" cache-proxy --origin "http://127.0.0.1:$port" --port 0 --cache-directory "$work/http-cache" --verbose \
    >"$work/proxy.out" 2>"$out/proxy.log" &
pids+=($!)
for _ in $(seq 100); do
    grep -q "^listening on" "$work/proxy.out" 2>/dev/null && break
    sleep 0.1
done
base=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/proxy.out")
[ -n "$base" ] || { echo "the proxy did not start" >&2; cat "$out/proxy.log" >&2; exit 1; }
echo "suite server on 127.0.0.1:$port, proxy on $base; output in $out" >&2

if [ $# -gt 0 ]; then
    # Single tests, each with the suite's dump of requests and responses.
    for id in "$@"; do
        (cd "$suite" && npm_config_base=$base npm_config_id=$id node --no-warnings test-engine/cli.mjs) || true
    done
    exit 0
fi

(cd "$suite" && npm_config_base=$base npm_package_config_id= node --no-warnings test-engine/cli.mjs) >"$out/results-cli.json"

# The browser-only tests, through the suite's runner in browser mode (no Fetch
# markers, same checks); this file is ours, generated outside the repository.
cat >"$work/browser-only.mjs" <<'EOF'
const [suite, base] = process.argv.slice(2)
const { runTests, getResults } = await import(`file://${suite}/test-engine/client/runner.mjs`)
const { default: tests } = await import(`file://${suite}/tests/index.mjs`)
const only = tests.map(set => ({ ...set, tests: set.tests.filter(test => test.browser_only === true) }))
  .filter(set => set.tests.length > 0)
await runTests(only, true, base)
console.log(JSON.stringify(getResults(), null, 2))
EOF
node --no-warnings "$work/browser-only.mjs" "$suite" "$base" >"$out/results-browser-only.json"

# Summary: which tests apply to a private cache, how we do, and how Chrome does.
cat >"$work/summary.mjs" <<'EOF'
import fs from 'fs'
const [suite, out] = process.argv.slice(2)
const { default: tests } = await import(`file://${suite}/tests/index.mjs`)
const { determineTestResult, resultTypes } = await import(`file://${suite}/test-engine/lib/results.mjs`)
const chrome = JSON.parse(fs.readFileSync(`${suite}/results/chrome.json`))
const ours = {
  ...JSON.parse(fs.readFileSync(`${out}/results-cli.json`)),
  ...JSON.parse(fs.readFileSync(`${out}/results-browser-only.json`))
}
fs.writeFileSync(`${out}/results.json`, JSON.stringify(ours, null, 2))
// A test applies to a private cache unless the suite itself keeps it from
// browsers (browser_skip: shared-cache rules such as s-maxage, proxy-revalidate,
// Authorization; redirects a browser follows; conditional requests a browser
// never hands its cache) or runs it on CDNs only (CDN-Cache-Control).
const all = tests.flatMap(set => set.tests)
const applicable = all.filter(test => test.browser_skip !== true && test.cdn_only !== true)
const kindOf = test => test.kind || 'required'
// Scored as cache-tests.fyi scores: a test whose dependency fails, or whose
// setup step fails, is neither a pass nor a failure of the rule it tests.
const names = new Map(Object.entries(resultTypes).map(([name, type]) => [type, name]))
const outcome = (results, test) => names.get(determineTestResult(tests, test.id, results))
const passed = (results, test) => ['pass', 'yes'].includes(outcome(results, test))
const failed = (results, test) => ['fail', 'optional_fail', 'no', 'harness_fail'].includes(outcome(results, test))
const detail = (results, test) => {
  const result = results[test.id]
  const text = result === undefined ? 'not run' : Array.isArray(result) ? result.join(': ') : String(result)
  return `${outcome(results, test)}: ${text}`
}
const lines = []
lines.push(`${applicable.length} of ${all.length} tests apply to a private cache ` +
  `(${all.length - applicable.length} are browser_skip or cdn_only).`, '')
lines.push('| kind | applicable | we pass | we fail | other (setup, dependency) | Chrome passes | we pass, Chrome does not | Chrome passes, we do not |')
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|')
for (const kind of ['required', 'optimal', 'check']) {
  const set = applicable.filter(test => kindOf(test) === kind)
  const count = predicate => set.filter(predicate).length
  lines.push(`| ${kind} | ${set.length} | ${count(t => passed(ours, t))} | ${count(t => failed(ours, t))} | ` +
    `${count(t => !passed(ours, t) && !failed(ours, t))} | ${count(t => passed(chrome, t))} | ` +
    `${count(t => passed(ours, t) && !passed(chrome, t))} | ${count(t => !passed(ours, t) && passed(chrome, t))} |`)
}
const list = (title, predicate) => {
  const set = applicable.filter(predicate)
  lines.push('', `${title}: ${set.length}`)
  for (const test of set) lines.push(`- ${test.id} (Chrome: ${outcome(chrome, test)}) — ${detail(ours, test)}`)
}
list('required tests we do not pass', t => kindOf(t) === 'required' && !passed(ours, t))
list('optimal tests Chrome passes and we do not', t => kindOf(t) === 'optimal' && !passed(ours, t) && passed(chrome, t))
list('optimal tests we pass and Chrome does not', t => kindOf(t) === 'optimal' && passed(ours, t) && !passed(chrome, t))
list('optimal tests neither passes', t => kindOf(t) === 'optimal' && !passed(ours, t) && !passed(chrome, t))
list('checks where we differ from Chrome', t => kindOf(t) === 'check' && passed(ours, t) !== passed(chrome, t))
const inapplicable = all.filter(test => !applicable.includes(test))
lines.push('', `not applicable, for information: we pass ${inapplicable.filter(t => passed(ours, t)).length} of ${inapplicable.length}`)
fs.writeFileSync(`${out}/summary.md`, lines.join('\n') + '\n')
console.log(lines.join('\n'))
EOF
node --no-warnings "$work/summary.mjs" "$suite" "$out"
