"""Reference side of urlscheme-bench's `vectortiles` suite: vtzero's full
decode of the same tile (Benchmarks/reference/vtzero_decode.cpp, C++ -O2,
header-only vtzero on Debian's libprotozero-dev).

vtzero's headers come from $VTZERO_INCLUDE (its include/ folder), else
.build/vtzero/include (relative to the package), else a clone into
.build/vtzero of $VTZERO_DIR (a checkout or bare git directory of
github.com/mapbox/vtzero, such as an offline mirror), else of
https://github.com/mapbox/vtzero (needs the network). No machine's own path
is tried: where vtzero lives is the caller's to say. Protozero comes from
Debian's libprotozero-dev (apt-get install libprotozero-dev).
  python3 Benchmarks/reference/mvt.py --iterations 21 --tile TILE.mvt --row NAME --work DIR
"""
import os
import subprocess
import sys

from common import emit, parser

here = os.path.dirname(os.path.abspath(__file__))
package = os.path.normpath(os.path.join(here, "..", ".."))


def vtzero_include():
    if os.environ.get("VTZERO_INCLUDE"):
        return os.environ["VTZERO_INCLUDE"]
    checkout = os.path.join(package, ".build", "vtzero")
    if os.path.isdir(os.path.join(checkout, "include", "vtzero")):
        return os.path.join(checkout, "include")
    given = os.environ.get("VTZERO_DIR")
    if given and not os.path.isdir(given):
        sys.exit("mvt.py: VTZERO_DIR=%s is not a directory (a vtzero checkout or bare git directory)" % given)
    source = given or "https://github.com/mapbox/vtzero"
    if os.path.isdir(os.path.join(source, "include", "vtzero")):
        return os.path.join(source, "include")  # a checkout with its work tree: use it in place
    done = subprocess.run(["git", "clone", "--quiet", source, checkout])
    if done.returncode != 0 or not os.path.isdir(os.path.join(checkout, "include", "vtzero")):
        sys.exit("mvt.py: no vtzero headers: cloning %s failed. Set VTZERO_INCLUDE to vtzero's include/ "
                 "folder, or VTZERO_DIR to a vtzero checkout or bare git mirror." % source)
    return os.path.join(checkout, "include")


def main():
    p = parser(__doc__)
    p.add_argument("--tile", required=True)
    p.add_argument("--row", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    binary = os.path.join(args.work, "vtzero_decode")
    if not os.path.isfile("/usr/include/protozero/pbf_reader.hpp") and not os.environ.get("VTZERO_INCLUDE"):
        print("mvt.py: protozero headers not in /usr/include (apt-get install libprotozero-dev)", file=sys.stderr)
    subprocess.run(["g++", "-O2", "-std=c++14", "-I", vtzero_include(), os.path.join(here, "vtzero_decode.cpp"), "-o", binary], check=True)
    # More runs than the Swift side's median: one decode is about a millisecond.
    out = subprocess.run([binary, args.tile, str(max(21, args.iterations))], check=True, capture_output=True, text=True).stdout.split()
    seconds, features, points = float(out[0]), int(out[1]), int(out[2])
    emit({args.row: {"seconds": seconds, "label": "vtzero (C++ -O2)", "bytes": os.path.getsize(args.tile),
                     "features": features, "points": points}})


if __name__ == "__main__":
    main()
