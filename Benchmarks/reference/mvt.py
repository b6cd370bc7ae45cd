"""Reference side of urlscheme-bench's `vectortiles` suite: vtzero's full
decode of the same tile (Benchmarks/reference/vtzero_decode.cpp, C++ -O2,
header-only vtzero on Debian's libprotozero-dev).

vtzero's headers come from $VTZERO_INCLUDE, else .build/vtzero/include, else
a shallow clone of github.com/mapbox/vtzero into .build/vtzero.
  python3 Benchmarks/reference/mvt.py --iterations 21 --tile TILE.mvt --row NAME --work DIR
"""
import os
import subprocess

from common import emit, parser

here = os.path.dirname(os.path.abspath(__file__))
package = os.path.normpath(os.path.join(here, "..", ".."))


def vtzero_include():
    if os.environ.get("VTZERO_INCLUDE"):
        return os.environ["VTZERO_INCLUDE"]
    checkout = os.path.join(package, ".build", "vtzero")
    if not os.path.isdir(os.path.join(checkout, "include", "vtzero")):
        subprocess.run(["git", "clone", "--quiet", "--depth", "1", "https://github.com/mapbox/vtzero", checkout], check=True)
    return os.path.join(checkout, "include")


def main():
    p = parser(__doc__)
    p.add_argument("--tile", required=True)
    p.add_argument("--row", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    binary = os.path.join(args.work, "vtzero_decode")
    subprocess.run(["g++", "-O2", "-std=c++14", "-I", vtzero_include(), os.path.join(here, "vtzero_decode.cpp"), "-o", binary], check=True)
    # More runs than the Swift side's median: one decode is about a millisecond.
    out = subprocess.run([binary, args.tile, str(max(21, args.iterations))], check=True, capture_output=True, text=True).stdout.split()
    seconds, features, points = float(out[0]), int(out[1]), int(out[2])
    emit({args.row: {"seconds": seconds, "label": "vtzero (C++ -O2)", "bytes": os.path.getsize(args.tile),
                     "features": features, "points": points}})


if __name__ == "__main__":
    main()
