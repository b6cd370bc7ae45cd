#!/usr/bin/env bash
# Builds the DocC catalog of every library product with the toolchain's own `docc` (no
# package dependency): emits the module's public symbol graphs, then runs
# `docc convert` with warnings as errors, so a broken ``symbol`` link or
# <doc:article> reference fails. Output: .build/docc/<Module>.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public > .build/docc-symbols.log 2>&1 \
    || { tail -n 40 .build/docc-symbols.log; exit 1; }
for module in URLSchemeKit ImageCodecs Raster MapRendering URLSchemeKitTesting; do
    graphs=.build/docc/symbol-graphs/$module
    rm -rf "$graphs" && mkdir -p "$graphs"
    cp .build/*/symbolgraph/$module.symbols.json "$graphs"/
    cp .build/*/symbolgraph/$module@*.symbols.json "$graphs"/ 2>/dev/null || true
    docc convert Sources/$module/$module.docc --additional-symbol-graph-dir "$graphs" \
        --output-path .build/docc/$module.doccarchive --fallback-display-name $module \
        --fallback-bundle-identifier org.urlschemekit.$module --warnings-as-errors
    echo "DocC: $module catalog converted without warnings"
done
