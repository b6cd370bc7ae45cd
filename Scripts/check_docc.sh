#!/usr/bin/env bash
# Builds the URLSchemeKit DocC catalog with the toolchain's own `docc` (no
# package dependency): emits the module's public symbol graphs, then runs
# `docc convert` with warnings as errors, so a broken ``symbol`` link or
# <doc:article> reference fails. Output: .build/docc/URLSchemeKit.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public > .build/docc-symbols.log 2>&1 \
    || { tail -n 40 .build/docc-symbols.log; exit 1; }
graphs=.build/docc/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
cp .build/*/symbolgraph/URLSchemeKit.symbols.json .build/*/symbolgraph/URLSchemeKit@*.symbols.json "$graphs"/
docc convert Sources/URLSchemeKit/URLSchemeKit.docc --additional-symbol-graph-dir "$graphs" \
    --output-path .build/docc/URLSchemeKit.doccarchive --fallback-display-name URLSchemeKit \
    --fallback-bundle-identifier org.urlschemekit.URLSchemeKit --warnings-as-errors
echo "DocC: URLSchemeKit catalog converted without warnings"
