#!/usr/bin/env bash
# Installs the reference side (Pillow & co. from PyPI, nginx from Debian),
# builds urlscheme-bench in release mode and runs it.
# Usage: Benchmarks/run.sh [SUITE ...] [--iterations N]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import PIL" 2>/dev/null || pip install --quiet pillow aggdraw pycairo
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; }
swift build -c release --product urlscheme-bench
exec .build/release/urlscheme-bench "$@"
