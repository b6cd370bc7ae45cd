"""Serves a folder on loopback and writes the body of a POST to a file.

    python3 result_server.py ROOT RESULT PORT_FILE

For Scripts/check_viewer_in_browser.sh: the MapLibre GL JS page is served
from ROOT (another origin than `urlscheme serve`, as a user's own page is) and
POSTs its verdict, which lands atomically in RESULT. The port, picked by the
kernel, is written to PORT_FILE.
"""
import http.server
import os
import sys

root, result, port_file = sys.argv[1:4]


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(result + ".part", "wb") as file:
            file.write(body)
        os.replace(result + ".part", result)
        self.send_response(204)
        self.end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".part", "w") as file:
    file.write(str(server.server_address[1]))
os.replace(port_file + ".part", port_file)
server.serve_forever()
