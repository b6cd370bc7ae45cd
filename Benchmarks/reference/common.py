"""Shared helpers for the reference side of urlscheme-bench.

Each reference script is run by the benchmark binary as
`python3 Benchmarks/reference/<suite>.py --iterations N [arguments...]` and
prints one JSON object: {row_key: {"seconds": median, "bytes": n, "label": s}}.
Timing matches the Swift side: one warm-up call, then the median of N calls.
"""
import argparse
import json
import sys
import time

WIDTH, HEIGHT = 1920, 1280


def median_seconds(fn, iterations):
    fn()
    samples = []
    for _ in range(max(1, iterations)):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return samples[len(samples) // 2]


def parser(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--iterations", type=int, default=7)
    return p


def load_rgba(path, width=WIDTH, height=HEIGHT):
    """Reads a raw RGBA8 file written by BenchmarkContext.rawFile as a Pillow image."""
    from PIL import Image
    with open(path, "rb") as f:
        return Image.frombytes("RGBA", (width, height), f.read())


def emit(rows):
    json.dump(rows, sys.stdout)
    sys.stdout.write("\n")
