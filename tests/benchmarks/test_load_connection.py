"""The load generator's HTTP/1.1 client against a real server on loopback."""

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from benchmarks.load_api import Connection


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        echoed = json.dumps(
            {"body": json.loads(body), "token": self.headers["Authorization"]}
        ).encode()
        if self.path == "/chunked":
            self.send_response(201)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(echoed), 7):
                piece = echoed[start : start + 7]
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(echoed)))
        if self.path == "/close":
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(echoed)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_one_connection_carries_requests_by_length_chunked_and_after_a_close(server):
    async def exchange():
        connection = Connection(server, {"Authorization": "Bearer t"}, timeout=5)
        answers = []
        for path in ("/plain", "/chunked", "/close", "/plain"):
            status, body = await connection.request("POST", path, {"path": path})
            answers.append((status, json.loads(body)))
        connection.close()
        return answers

    answers = asyncio.run(exchange())

    assert [status for status, _ in answers] == [200, 201, 200, 200]
    paths = ["/plain", "/chunked", "/close", "/plain"]
    assert [body["body"]["path"] for _, body in answers] == paths
    assert {body["token"] for _, body in answers} == {"Bearer t"}


def test_a_refused_connection_raises_and_leaves_the_client_closed():
    async def exchange():
        # Nothing listens on port 9 (discard) here: the request raises instead of
        # hanging, and the next request opens a new connection.
        connection = Connection("http://127.0.0.1:9", {}, timeout=0.5)
        with pytest.raises((OSError, TimeoutError)):
            await connection.request("GET", "/healthz")
        assert connection.writer is None

    asyncio.run(exchange())
