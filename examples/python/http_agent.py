"""An agent for `dialogym evaluate --agent-url http://127.0.0.1:PORT/act`.

Run `python3 examples/python/http_agent.py [PORT]` (0 = any free port); it prints the URL on
its first stdout line. Each request is a POSTed JSON body; the reply body is {"action": ...}.
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy import act  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps({"action": act(req["turn"], req["observation"], req["tools"])}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}/act", flush=True)
server.serve_forever()
