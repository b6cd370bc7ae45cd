#!/usr/bin/env python3
"""Writes Tests/ImageCodecsTests/Fixtures/webp/expectations.tsv: for each WebP
fixture, the size and FNV-1a 64 hashes of the RGBA and of the alpha plane that
libwebp's `dwebp -pam` decodes (Debian's `webp` package; a real decoder, not
ours), or `refused` when dwebp cannot decode it. Each PAM's MD5 is checked against libwebp_tests.md5 from
libwebp-test-data when that file lists it.

    python3 Scripts/make_webp_expectations.py [/path/to/libwebp-test-data]
"""
import hashlib, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "Tests", "ImageCodecsTests", "Fixtures", "webp")
# By default the libwebp test vectors in the shared data folder beside the checkout.
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "webp")


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for x in b:
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def pam(path):
    raw = subprocess.run(["dwebp", path, "-pam", "-o", "-"], check=True, capture_output=True).stdout
    header, _, pixels = raw.partition(b"ENDHDR\n")
    fields = dict(line.split(b" ", 1) for line in header.split(b"\n")[1:] if line)
    assert fields[b"DEPTH"] == b"4" and fields[b"MAXVAL"] == b"255", fields
    return raw, int(fields[b"WIDTH"]), int(fields[b"HEIGHT"]), pixels


known = {}
md5_list = os.path.join(data, "libwebp_tests.md5")
if os.path.exists(md5_list):
    for line in open(md5_list):
        digest, name = line.split()
        known[name] = digest

rows = []
for name in sorted(os.listdir(fixtures)):
    if not name.endswith(".webp") or name.startswith("anim_"):
        continue
    try:
        raw, width, height, pixels = pam(os.path.join(fixtures, name))
    except subprocess.CalledProcessError:
        rows.append("%s\trefused" % name)  # dwebp refuses it (lossless4.webp is cut short)
        continue
    if name + ".pam" in known:
        assert hashlib.md5(raw).hexdigest() == known[name + ".pam"], name + ": dwebp differs from libwebp_tests.md5"
    rows.append("%s\t%d\t%d\t%016x\t%016x" % (name, width, height, fnv1a64(pixels), fnv1a64(pixels[3::4])))

with open(os.path.join(fixtures, "expectations.tsv"), "w") as out:
    out.write("# name\twidth\theight\tfnv1a64(rgba)\tfnv1a64(alpha)  (dwebp -pam; made by Scripts/make_webp_expectations.py)\n")
    out.write("\n".join(rows) + "\n")
print(len(rows), "files")
