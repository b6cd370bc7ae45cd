#!/usr/bin/env python3
"""Resident memory of `urlscheme serve` (release) over 100,000 requests of
10,000 distinct URLs after a warm-up (issue 38: flat within 10 %), and its
peak under the largest renders against the bound the issue names: workers ×
one render's memory, plus the caches' capacities.

    swift build -c release --product urlscheme
    Benchmarks/serve-memory.py [REQUESTS] [DISTINCT]

First the server's resident memory at rest (the baseline), then one of the
largest maps a URL may ask for (4096x4096 at scale 1: 2^24 pixels, the
most `map://` allows) rendered alone: its rise of the peak (VmHWM) is
one render's memory. The flat run: the URLs are 64x64 `/map` renders of the
built-in world map at 10,000 centres, so each is a small render. The warm-up
asks for each URL once (every one renders); then REQUESTS requests go round
the same URLs in a shuffled order over 8 keep-alive connections, and the
server's VmRSS is read every tenth of the way. Last, 12 more of the largest
maps on 6 connections (three times the 2 workers, so some queue) while 2
connections keep asking for small ones; the server's peak must stay under
baseline + workers × one render + the answer cache (64 MB) + the image
cache's memory (64 MB). Prints Markdown tables and the spread (largest /
smallest sample), and exits 1 when the spread is over 1.10 or the peak over
the bound.
"""
import http.client, os, random, socket, subprocess, sys, tempfile, threading, time

requests_total = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
distinct = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, capture_output=True, text=True,
                        check=True).stdout.strip() + "/urlscheme"
sock = socket.socket(); sock.bind(("127.0.0.1", 0)); port = sock.getsockname()[1]; sock.close()
home = tempfile.mkdtemp(prefix="serve-memory-")
server = subprocess.Popen([binary, "serve", "--port", str(port), "--workers", "2"], env={**os.environ, "HOME": home, "XDG_CACHE_HOME": home + "/cache"},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def rss_mb():
    with open(f"/proc/{server.pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(paths, connections=8, every=None, samples=None):
    """GETs each of `paths` over `connections` keep-alive connections; samples RSS every `every` answers."""
    lock = threading.Lock()
    state = {"next": 0, "done": 0, "failed": 0}

    def worker():
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                index = state["next"]
                if index >= len(paths):
                    return
                state["next"] += 1
            client.request("GET", paths[index])
            answer = client.getresponse()
            answer.read()
            with lock:
                state["done"] += 1
                if answer.status != 200:
                    state["failed"] += 1
                if every and state["done"] % every == 0:
                    samples.append((state["done"], *rss_mb()))

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in threads: thread.start()
    for thread in threads: thread.join()
    return state["failed"]


try:
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/health"); break
        except OSError:
            time.sleep(0.1)
    workers, cache_mb = 2, 64 + 64
    baseline = rss_mb()[0]
    largest = "/map?latitude={:.1f}&longitude={:.1f}&zoom=5&width=4096&height=4096"
    started = time.time()
    failed_largest = run([largest.format(0, 0)], connections=1)
    one_render = rss_mb()[1] - baseline
    print(f"baseline {baseline:.1f} MB; one 4096x4096 map alone: {time.time() - started:.1f} s, peak +{one_render:.1f} MB")
    paths = [f"/map?latitude={-60 + (i // 100) * 1.2:.1f}&longitude={-170 + (i % 100) * 3.4:.1f}&zoom=3&width=64&height=64"
             for i in range(distinct)]
    started = time.time()
    failed = run(paths)
    warm_seconds = time.time() - started
    after_warmup = rss_mb()
    order = [paths[i % distinct] for i in range(requests_total)]
    random.Random(38).shuffle(order)
    samples = []
    started = time.time()
    failed += run(order, every=requests_total // 10, samples=samples)
    seconds = time.time() - started
    print(f"release urlscheme serve --workers 2, {distinct} distinct 64x64 /map URLs, {os.cpu_count()} cores, "
          f"load {open('/proc/loadavg').read().split()[0]}")
    print(f"warm-up: {distinct} renders in {warm_seconds:.1f} s, RSS after {after_warmup[0]:.1f} MB")
    print(f"{requests_total} requests in {seconds:.1f} s ({requests_total / seconds:.0f}/s over 8 Python connections), {failed} not 200")
    print()
    print("| requests after warm-up | RSS MB | peak MB |")
    print("|---:|---:|---:|")
    for done, now, peak in samples:
        print(f"| {done} | {now:.1f} | {peak:.1f} |")
    values = [now for _, now, _ in samples]
    spread = max(values) / min(values)
    print()
    print(f"spread (largest / smallest sample): {spread:.3f}")

    big = [largest.format(10 + i, 20 + i) for i in range(12)]
    small_paths = [paths[i] for i in range(2000)]
    started = time.time()
    failures = []
    threads = [threading.Thread(target=lambda: failures.append(run(small_paths, connections=2)))]
    for thread in threads: thread.start()
    failed_largest += run(big, connections=6)
    for thread in threads: thread.join()
    peak = rss_mb()[1]
    bound = baseline + workers * one_render + cache_mb
    print()
    print("| under the largest renders | MB |")
    print("|---|---:|")
    print(f"| baseline at rest | {baseline:.1f} |")
    print(f"| one largest render (peak rise, alone) | {one_render:.1f} |")
    print(f"| bound: baseline + {workers} workers × one render + caches {cache_mb} MB | {bound:.1f} |")
    print(f"| peak after 12 largest on 6 connections beside 2,000 small ({time.time() - started:.1f} s) | {peak:.1f} |")
    print()
    print(f"peak / bound: {peak / bound:.2f}; largest maps not 200: {failed_largest}, small: {sum(failures)}")
    sys.exit(0 if spread <= 1.10 and failed == 0 and peak <= bound and failed_largest == 0 else 1)
finally:
    server.terminate()
    server.wait()
    subprocess.run(["rm", "-rf", home])
