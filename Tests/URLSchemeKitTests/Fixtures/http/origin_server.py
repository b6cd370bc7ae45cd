"""A scriptable HTTP origin on 127.0.0.1 (or the loopback address given) for the HTTP cache tests.

Prints its port on the first line of standard output, then serves until killed.
Routes are set by the tests:

  POST /__route  {"path": "/a", "status": 200, "headers": {"Cache-Control": "max-age=60"},
                  "body": "text", "body_size": 0, "echo_header": "Accept-Language",
                  "delay": 0.0, "unsafe_status": 200, "unsafe_headers": {}, "endless": false,
                  "trickle": 0.0}
  GET  /__stats?path=/a  ->  {"count": N, "methods": [...], "last_headers": {...}}
  POST /__clock  {"offset": 120}   (the Date header runs this many seconds ahead,
                                    as the tests move the cache's clock)

A GET or HEAD of a route answers with its status, headers and body (body_size
bytes of a repeating pattern when given; with echo_header, the body is that
request header's value, or with echo_map {value: body} what that value maps to). A request whose If-None-Match names the route's ETag,
or whose If-Modified-Since is not before its Last-Modified, gets a 304 with the
route's headers. With trickle, the body goes out one byte per trickle seconds
(a slow server that never trips an idle time-out). Any other method answers
unsafe_status with unsafe_headers.
With endless, the body is chunked and ends only at endless_bytes (256 MiB unless
given), in chunks of endless_chunk bytes (64 KiB unless given), chunk_delay
seconds apart; with gzip_zeros, it is that many zero bytes gzipped, chunked,
with Content-Encoding: gzip (a bomb: 2 GiB is 2 MB on the wire).
Every request to a route is counted, with its method and headers.
"""
import email.utils
import json
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

routes = {}
stats = {}
clock = {"offset": 0.0}
lock = threading.Lock()


gzipped = {}


def gzipped_zeros(size):
    """`size` zero bytes gzipped, in 64 KiB parts, made once per size."""
    with lock:
        if size not in gzipped:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
            block = bytes(1 << 20)
            data = b"".join(compressor.compress(block[:min(len(block), size - done)]) for done in range(0, size, len(block)))
            data += compressor.flush()
            gzipped[size] = [data[i:i + 65536] for i in range(0, len(data), 65536)]
        return gzipped[size]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle's
    # algorithm and the client's delayed ACK hold the body back ~40 ms.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, headers, body=b""):
        self.send_response_only(status)
        names = {name.lower() for name in headers}
        if "date" not in names:
            self.send_header("Date", email.utils.formatdate(time.time() + clock["offset"], usegmt=True))
        for name, value in headers.items():
            if name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def control(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/__route":
            route = json.loads(self.read_body())
            if route.get("gzip_zeros"):
                gzipped_zeros(route["gzip_zeros"])  # made now, not while a client waits
            with lock:
                routes[route["path"]] = route
            self.reply(200, {"Content-Type": "text/plain"}, b"ok")
        elif url.path == "/__clock":
            clock["offset"] = float(json.loads(self.read_body())["offset"])
            self.reply(200, {"Content-Type": "text/plain"}, b"ok")
        elif url.path == "/__stats":
            path = urllib.parse.parse_qs(url.query)["path"][0]
            with lock:
                entry = stats.get(path, {"count": 0, "methods": [], "last_headers": {}})
                body = json.dumps(entry).encode()
            self.reply(200, {"Content-Type": "application/json"}, body)
        else:
            self.reply(404, {}, b"unknown control path")

    def serve(self):
        if self.path.startswith("/__"):
            return self.control()
        body_in = self.read_body() if self.command not in ("GET", "HEAD") else b""
        path = self.path
        with lock:
            # A route answers its path with any query too: each query is a URL of
            # its own to a cache, which is how benchmarks make misses.
            route = routes.get(path) or routes.get(urllib.parse.urlsplit(path).path)
            entry = stats.setdefault(path, {"count": 0, "methods": [], "last_headers": {}})
            entry["count"] += 1
            entry["methods"].append(self.command)
            entry["last_headers"] = {name: value for name, value in self.headers.items()}
        if route is None:
            return self.reply(404, {"Content-Type": "text/plain"}, b"no route " + path.encode())
        if route.get("delay"):
            time.sleep(route["delay"])
        if self.command not in ("GET", "HEAD"):
            return self.reply(route.get("unsafe_status", 200), route.get("unsafe_headers", {}), b"done " + body_in[:64])
        headers = dict(route.get("headers", {}))
        etag = next((v for k, v in headers.items() if k.lower() == "etag"), None)
        modified = next((v for k, v in headers.items() if k.lower() == "last-modified"), None)
        if_none_match = self.headers.get("If-None-Match")
        if_modified_since = self.headers.get("If-Modified-Since")
        not_modified = False
        if if_none_match is not None and etag is not None:
            weak = lambda tag: tag.strip()[2:] if tag.strip().startswith("W/") else tag.strip()
            not_modified = any(weak(tag) == weak(etag) for tag in if_none_match.split(","))
        elif if_modified_since is not None and modified is not None:
            since = email.utils.parsedate_to_datetime(if_modified_since)
            not_modified = email.utils.parsedate_to_datetime(modified) <= since
        if not_modified:
            return self.reply(304, headers)
        if route.get("endless"):
            # A chunked body that never ends (bounded at 256 MiB, or endless_bytes, so a test gone wrong still stops).
            self.send_response_only(route.get("status", 200))
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = (bytes(range(256)) * 256)[:route.get("endless_chunk", 65536)]
            delay = route.get("chunk_delay", 0)
            try:
                for _ in range(route.get("endless_bytes", 256 << 20) // len(chunk)):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    if delay:
                        time.sleep(delay)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if route.get("gzip_zeros"):
            self.send_response_only(route.get("status", 200))
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                for part in gzipped_zeros(route["gzip_zeros"]):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if route.get("echo_header"):
            value = self.headers.get(route["echo_header"]) or "(none)"
            # echo_map names what a value stands for, so a body can say whose it is without holding a secret.
            if route.get("echo_map") is not None:
                value = route["echo_map"].get(value, "(other)")
            body = value.encode()
        elif route.get("body_size"):
            size = route["body_size"]
            pattern = bytes(range(256))
            body = (pattern * (size // 256 + 1))[:size]
        else:
            body = route.get("body", "").encode()
        if route.get("trickle"):
            headers["Content-Length"] = str(len(body))
            self.send_response_only(route.get("status", 200))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(route["trickle"])
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        self.reply(route.get("status", 200), headers, body)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = serve


# The address to bind: 127.0.0.1 unless given (another loopback address, such
# as 127.0.0.2, stands for another host).
server = ThreadingHTTPServer((sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
