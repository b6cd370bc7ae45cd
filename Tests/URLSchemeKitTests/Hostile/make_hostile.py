#!/usr/bin/env python3
"""Writes the hostile corpus: small files that would cost much (files/), and
cases.tsv, the URLs loaded against them with the outcome each must have.

    python3 Tests/URLSchemeKitTests/Hostile/make_hostile.py

HostileCorpusTests plants every file in a fresh asset store (as a store that
checked only headers would have accepted it), runs `urlscheme add` on each and
`urlscheme get` on each case in a child process, and checks the outcome, the
time and the peak resident memory (getrusage). Deterministic: no randomness.

Four files too large to keep in the repository are made by the test itself
at run time (HostileAnimations): gif-100k-frames.gif, gif-endless-lzw.gif,
webp-100k-frames.webp and gif-64mp.gif; the cases here name them.
Needs Pillow (a lossy WebP to cut short, a 1x1 lossless one to wrap).
"""
import io
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + bytes(body)


def jpeg_header(width, height, progressive):
    """SOI, DQT of ones, SOF of one grey component, and Huffman tables of one
    one-bit code each: a DC scan costs a bit per block, and in a progressive
    file one AC symbol is an end-of-band run of 2^14 + 14 bits."""
    out = bytes([0xFF, 0xD8])
    out += segment(0xDB, [0] + [1] * 64)
    out += segment(0xC2 if progressive else 0xC0, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0])
    out += segment(0xC4, [0x00, 1] + [0] * 15 + [0])
    out += segment(0xC4, [0x10, 1] + [0] * 15 + [0xE0 if progressive else 0x00])
    return out


def scan(ss, se, ah, al, data):
    return segment(0xDA, [1, 1, 0x00, ss, se, ah << 4 | al]) + data


def eob_runs(blocks):
    """AC data covering `blocks` blocks with end-of-band runs of 32,767."""
    bits = ""
    for _ in range((blocks + 32766) // 32767):
        bits += "0" + "1" * 14
    bits += "1" * (-len(bits) % 8)
    out = bytearray()
    for i in range(0, len(bits), 8):
        byte = int(bits[i:i + 8], 2)
        out.append(byte)
        if byte == 0xFF:
            out.append(0)
    return bytes(out)


def blocks(width, height):
    return ((width + 7) // 8) * ((height + 7) // 8)


def write(name, data):
    with open(os.path.join(FILES, name), "wb") as f:
        f.write(data)


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, depth, color, idat):
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0))
            + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))


def riff_chunk(tag, body):
    return tag + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")


def webp(chunks):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8x(width, height, flags=0):
    return riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


def pillow_webp(image, **options):
    out = io.BytesIO()
    image.save(out, "WEBP", **options)
    return out.getvalue()


def gif_and_webp_files():
    from PIL import Image
    # A GIF whose logical screen is 65535 x 65535 (4.3 gigapixels, 17 GB of
    # RGBA), holding one 1x1 image: refused at the header.
    lzw = bytes([2, 2, 0x44, 0x01, 0])  # code size 2: clear, 0, end
    write("gif-screen-bomb.gif", b"GIF89a" + struct.pack("<HH", 65535, 65535) + bytes([0, 0, 0])
          + b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + bytes([0x80]) + bytes([255, 0, 0, 0, 0, 255]) + lzw + b";")

    # A VP8X canvas of 2^24 x 2^24 (the format's largest) around a 1x1 lossless picture.
    pixel = pillow_webp(Image.new("RGBA", (1, 1), (255, 0, 0, 255)), lossless=True)
    vp8l = pixel[pixel.index(b"VP8L"):]
    write("webp-canvas-bomb.webp", webp([vp8x(1 << 24, 1 << 24), vp8l]))

    # A 1024 x 768 lossy picture cut short: once as a download cut off (the
    # RIFF size says more than the file holds), once with its sizes mended so
    # the VP8 partitions themselves end early.
    photo = Image.new("RGB", (1024, 768))
    photo.putdata([((x * 7) & 255, (y * 5) & 255, ((x ^ y) * 3) & 255) for y in range(768) for x in range(1024)])
    lossy = pillow_webp(photo, quality=80, method=0)
    write("vp8-cut.webp", lossy[:len(lossy) // 2])
    start = lossy.index(b"VP8 ")
    payload = lossy[start + 8:start + 8 + (len(lossy) - start - 8) // 3]
    write("vp8-short-partitions.webp", webp([riff_chunk(b"VP8 ", payload)]))


def main():
    os.makedirs(FILES, exist_ok=True)
    gif_and_webp_files()
    big = 8192  # 64 MP: the default ResourceBudget.decodedPixels
    n = blocks(big, big)

    # Many cheap scans: a DC scan, then one AC scan per coefficient and bit
    # (valid succession) until the 100-scan limit is passed.
    body = jpeg_header(big, big, True) + scan(0, 0, 0, 0, bytes(n // 8))
    count = 1
    for al in range(13, -1, -1):
        for k in range(1, 64):
            body += scan(k, k, 0 if al == 13 else al + 1, al, eob_runs(n))
            count += 1
            if count > 120:
                break
        if count > 120:
            break
    write("many-scans.jpg", body + bytes([0xFF, 0xD9]))

    # The same first AC scan twice: no successive-approximation order allows it.
    body = jpeg_header(big, big, True) + scan(0, 0, 0, 0, bytes(n // 8))
    body += scan(1, 63, 0, 0, eob_runs(n)) * 2
    write("repeated-scan.jpg", body + bytes([0xFF, 0xD9]))

    # A 64 MP frame and a few bytes of scan: the coefficients (128 MiB) must
    # not be allocated for data that could never fill them.
    write("header-only.jpg", jpeg_header(big, big, True) + scan(0, 0, 0, 0, bytes(64)) + bytes([0xFF, 0xD9]))
    write("header-only-baseline.jpg", jpeg_header(big, big, False) + scan(0, 63, 0, 0, bytes(64)) + bytes([0xFF, 0xD9]))

    # A whole 64 MP photo (grey, every block flat: 2 bits each, 256 KiB):
    # rotate=45 would make a 128 MP canvas.
    write("photo-64mp.jpg", jpeg_header(big, big, False) + scan(0, 63, 0, 0, bytes(2 * n // 8)) + bytes([0xFF, 0xD9]))

    # A valid progressive 64 MP file at the scan limit: 100 cheap scans.
    body = jpeg_header(big, big, True) + scan(0, 0, 0, 0, bytes(n // 8))
    count = 1
    for al in range(13, -1, -1):
        for k in range(1, 64):
            if count < 100:
                body += scan(k, k, 0 if al == 13 else al + 1, al, eob_runs(n))
                count += 1
    write("scans-at-the-limit.jpg", body + bytes([0xFF, 0xD9]))

    # A 16 MP photo to blur: the blur's float buffer was 16 bytes a pixel (256 MiB here).
    write("photo-16mp.jpg", jpeg_header(4096, 4096, False) + scan(0, 63, 0, 0, bytes(2 * blocks(4096, 4096) // 8))
          + bytes([0xFF, 0xD9]))

    # A 16,000 × 1,000 panorama: mode=fill into a large square used to scale
    # the whole strip first.
    write("panorama.jpg", jpeg_header(16000, 1000, False) + scan(0, 63, 0, 0, bytes(2 * blocks(16000, 1000) // 8))
          + bytes([0xFF, 0xD9]))

    # 16-bit RGB, 48 MP: 288 MB of samples for a 192 MB bitmap.
    write("rgb16-48mp.png", png(8000, 6000, 16, 2, zlib.compress(b"\0" * 1024)))
    # A PNG claiming 64 MP whose data is a few bytes: refused when the data runs out.
    write("png-short-data.png", png(big, big, 8, 6, zlib.compress(b"\0" * 1024)))

    photo = "{many-scans.jpg}"
    cases = [
        # name, URL, 200 or error, text the error message must contain
        ("many scans", "asset://?id={many-scans.jpg}&width=640", "error", "more than 100 scans"),
        ("many scans, 1/8", "asset://?id={many-scans.jpg}&width=64", "error", "more than 100 scans"),
        ("repeated scan", "asset://?id={repeated-scan.jpg}&width=640", "error", "after a scan that left Al=0"),
        ("header only", "asset://?id={header-only.jpg}", "error", "a scan of 1048576 blocks"),
        ("header only, baseline", "asset://?id={header-only-baseline.jpg}&width=100", "error", "a scan of 1048576 blocks"),
        ("rotate 64 MP", "asset://?id={photo-64mp.jpg}&rotate=45", "error", "parameter 'rotate' makes a 11586×11586 image"),
        ("rotate 64 MP, small", "asset://?id={photo-64mp.jpg}&rotate=45&width=512", "200", ""),
        ("fill a panorama", "asset://?id={panorama.jpg}&width=2048&height=2048&mode=fill&format=jpeg", "200", ""),
        ("avatar of panoramas", "avatar://?id={panorama.jpg}&id={panorama.jpg}&id={panorama.jpg}&size=2048", "200", ""),
        ("100 scans over 64 MP, 1/4", "asset://?id={scans-at-the-limit.jpg}&width=2048", "200", ""),
        ("blur 16 MP", "asset://?id={photo-16mp.jpg}&filter=blur:50&format=jpeg", "200", ""),
        ("sharpen 16 MP", "asset://?id={photo-16mp.jpg}&filter=sharpen:2&format=jpeg", "200", ""),
        ("16-bit PNG", "asset://?id={rgb16-48mp.png}&width=100", "error", "bytes of samples, above the limit"),
        ("PNG short data", "asset://?id={png-short-data.png}&width=100", "error", "IDAT"),
        ("filter flood", "asset://?id={panorama.jpg}&width=64&filter=" + ",".join(["blur:100"] * 5000), "error", "chains 5000 filters; at most 16"),
        ("path around the worlds", "map://?width=64&height=64&latitude=0&longitude=0&zoom=0&path="
         + ",".join("%d,%d" % (i % 7, [0, 120, -120][i % 3]) for i in range(20000)), "200", ""),
        ("path around the worlds, large", "map://?width=4096&height=4096&latitude=0&longitude=0&zoom=2&path="
         + ",".join("%d,%d" % (i % 10, [0, 120, -120][i % 3]) for i in range(20000)), "200", ""),
        ("64 paths of 20,000 points", "map://?width=64&height=64&latitude=0&longitude=0&zoom=0"
         + ("&path=" + ",".join(["1,2"] * 400)) * 64, "error", "has 25600 points in all; at most 20000"),
        # GIF and WebP: bombs refused at the header, animations bounded by
        # the frame and composited-pixel limits before any frame is decoded.
        ("GIF screen bomb", "asset://?id={gif-screen-bomb.gif}&width=64", "error", "GIF screen is 65535×65535 = 4294836225 pixels, above the limit of"),
        ("GIF endless LZW", "asset://?id={gif-endless-lzw.gif}&width=64", "200", ""),
        ("GIF 100,000 frames, the first", "asset://?id={gif-100k-frames.gif}&width=64", "200", ""),
        ("GIF 100,000 frames, frame 5000", "asset://?id={gif-100k-frames.gif}&frame=5000&width=64", "200", ""),
        ("GIF 100,000 frames, frame 9000", "asset://?id={gif-100k-frames.gif}&frame=9000",
         "error", "9000 frames of 160000 pixels are above the animation's limit of 1073741824"),
        ("GIF 100,000 frames, frame 100000", "asset://?id={gif-100k-frames.gif}&frame=100000",
         "error", "parameter 'frame' must be a whole number from 1 to 10000"),
        ("WebP canvas bomb", "asset://?id={webp-canvas-bomb.webp}&width=64", "error", "WebP image is 16777216×16777216"),
        ("WebP 100,000 frames", "asset://?id={webp-100k-frames.webp}&frame=2", "error", "WebP animation has more than 10000 frames"),
        ("VP8 cut short", "asset://?id={vp8-cut.webp}&width=64", "error", "truncated"),
        ("VP8 partitions cut short", "asset://?id={vp8-short-partitions.webp}&width=64", "error", "VP8 data ends inside token partition 0"),
        # A 35-byte GIF of an 8000x8000 screen (made at run time) as all four
        # members: one decode, its first frame composited at 1/8.
        ("avatar of a 64-megapixel GIF", "avatar://?" + "&".join(["id={gif-64mp.gif}"] * 4), "200", ""),
    ]
    with open(os.path.join(HERE, "cases.tsv"), "w") as f:
        f.write("# name\tURL ({file} is the id of that planted file)\t200, or error\ttext the error message contains\n")
        for case in cases:
            f.write("\t".join(case) + "\n")
    # Files `urlscheme add` must refuse, and why.
    with open(os.path.join(HERE, "refused.tsv"), "w") as f:
        f.write("# file\ttext of the refusal\n")
        for name, reason in [("many-scans.jpg", "more than 100 scans"), ("repeated-scan.jpg", "after a scan that left Al=0"),
                             ("header-only.jpg", "a scan of 1048576 blocks"), ("header-only-baseline.jpg", "a scan of 1048576 blocks"),
                             ("rgb16-48mp.png", "bytes of samples, above the limit"),
                             ("gif-screen-bomb.gif", "GIF screen is 65535×65535"),
                             ("webp-canvas-bomb.webp", "WebP image is 16777216×16777216"),
                             ("webp-100k-frames.webp", "WebP animation has more than 10000 frames"),
                             ("vp8-cut.webp", "truncated")]:
            f.write(name + "\t" + reason + "\n")


main()
