"""The reference side of Scripts/bench_vp8/bench_vp8.sh: makes the input (a
4000x3000 photo-like picture, the generator of urlscheme-bench's photo at
camera size, encoded by Pillow at q80) and times Pillow's decode to RGB and
`dwebp -ppm` (libwebp with its SIMD) on it. Medians of wall and CPU seconds."""
import json
import os
import subprocess
import sys
import time

import numpy as np
from PIL import Image, features


def make_photo(path, width=4000, height=3000):
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    fx, fy = x / width, y / height
    field = 0.5 + 0.25 * np.sin(6.1 * fx + 2.3 * fy) + 0.2 * np.cos(4.7 * fy - 1.9 * fx * fx)
    texture = 0.06 * np.sin(x * 0.37 + 3 * np.sin(y * 0.11)) * np.cos(y * 0.29)
    noise = np.random.default_rng(1).integers(-6, 7, size=(height, width))
    base = field + texture
    r = 255 * (base * 0.9 + 0.1 * fy) + noise
    g = 255 * (0.8 * base + 0.15 * np.sin(3 * fx)) + noise
    b = 255 * (1.0 - base * 0.7) + noise
    rgb = np.clip(np.dstack([r, g, b]), 0, 255).astype(np.uint8)
    Image.fromarray(rgb, "RGB").save(path, "WEBP", quality=80)


def median(fn, iterations):
    fn()
    wall, cpu = [], []
    for _ in range(iterations):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return sorted(wall)[len(wall) // 2], sorted(cpu)[len(cpu) // 2]


def dwebp_seconds(path, iterations):
    """dwebp is a separate process: CPU time from the children's rusage."""
    wall, cpu = [], []
    for _ in range(iterations + 1):
        before = os.times()
        w = time.perf_counter()
        subprocess.run(["dwebp", "-quiet", path, "-ppm", "-o", "/dev/null"], check=True)
        after = os.times()
        wall.append(time.perf_counter() - w)
        cpu.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    wall, cpu = wall[1:], cpu[1:]
    return sorted(wall)[len(wall) // 2], sorted(cpu)[len(cpu) // 2]


path, iterations = sys.argv[1], int(sys.argv[2])
if not os.path.exists(path):
    make_photo(path)


def pillow_decode():
    with Image.open(path) as image:
        image.load()


pillow = median(pillow_decode, iterations)
dwebp = dwebp_seconds(path, iterations)
json.dump({"libwebp": features.version("webp"),
           "pillow": {"wall": pillow[0], "cpu": pillow[1]},
           "dwebp": {"wall": dwebp[0], "cpu": dwebp[1]}}, sys.stdout)
print()
