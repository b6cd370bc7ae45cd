#!/usr/bin/env bash
# Installs the reference side, builds urlscheme-bench in release mode and runs
# it: our side and the reference side of every row in one run, same inputs.
#   Benchmarks/run.sh                 all suites
#   Benchmarks/run.sh cache png       some suites (cache, png, jpeg, raster, map, labels, asset, http, scroll)
#   Benchmarks/run.sh --iterations 15 more samples per row
# References: Pillow and aggdraw from PyPI, pycairo (built against Debian's
# libcairo2-dev), nginx from Debian's packages. A reference that cannot be
# installed leaves its rows out rather than stopping the run.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nginx >/dev/null || ! python3 -c "import cairo" 2>/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light libcairo2-dev pkg-config >/dev/null
fi
python3 -c "import PIL" 2>/dev/null || pip install --quiet pillow
python3 -c "import aggdraw" 2>/dev/null || pip install --quiet aggdraw || echo "aggdraw unavailable: its row is left out"
python3 -c "import cairo" 2>/dev/null || pip install --quiet pycairo || echo "pycairo unavailable: its rows are left out"
# MapLibre Native for the vectormap suite, on Mesa's software OpenGL.
if ! python3 -c "import pymgl" 2>/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libopengl0 >/dev/null || true
    pip install --quiet pymgl || echo "pymgl unavailable: the vectormap reference is left out"
fi
swift build -c release --product urlscheme-bench
exec .build/release/urlscheme-bench "$@"
