"""An OpenAI-compatible embeddings server on loopback that records every request: the fake
remote embedder of the tests, misbehaving on request."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from memory.embeddings.fake import FakeEmbedder

DIMENSIONS = 64


class EmbeddingsServer:
    """``POST /v1/embeddings`` answered with the suite's fake embedder's vectors, and each
    request's body kept in ``received``. ``behaviour`` makes it answer otherwise:
    ``valid``, ``wrong_count``, ``wrong_length``, ``not_finite``, ``nested`` (JSON nested
    deeper than a parser recurses), ``not_json``, ``unavailable`` (503 with Retry-After),
    ``slow`` (answers after ``delay`` seconds), ``absurd_usage`` (ten million tokens)."""

    def __init__(self, *, behaviour="valid", delay=6.0):
        self.behaviour = behaviour
        self.delay = delay
        self.received = []
        self._fake = FakeEmbedder()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                outer.received.append(
                    {
                        "path": self.path,
                        "authorization": self.headers.get("Authorization"),
                        **body,
                    }
                )
                status, answer, headers = outer.answer(body)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def texts(self, input_type=None):
        """Every text received, of ``input_type`` ("query" or "passage") when given."""
        return [
            text
            for body in self.received
            if input_type is None or body.get("input_type") == input_type
            for text in body["input"]
        ]

    def answer(self, body):
        texts = body["input"]
        if self.behaviour == "unavailable":
            return 503, b"{}", {"Retry-After": "120"}
        if self.behaviour == "slow":
            time.sleep(self.delay)
        if self.behaviour == "not_json":
            return 200, b"<html>hello</html>", {}
        if self.behaviour == "nested":
            return 200, b"[" * 100_000 + b"]" * 100_000, {}
        vectors = [[float(value) for value in row] for row in self._fake.passages(texts).tolist()]
        if self.behaviour == "wrong_count":
            vectors = vectors[:-1] or [[0.1] * DIMENSIONS, [0.1] * DIMENSIONS]
        if self.behaviour == "wrong_length":
            vectors = [row[:-1] for row in vectors]
        reply = {
            "object": "list",
            "data": [
                {"object": "embedding", "index": at, "embedding": row}
                for at, row in enumerate(vectors)
            ],
            "model": body["model"],
            "usage": {"prompt_tokens": sum(len(text) for text in texts) // 4},
        }
        if self.behaviour == "absurd_usage":
            reply["usage"] = {"prompt_tokens": 10_000_000}
        text = json.dumps(reply)
        if self.behaviour == "not_finite":
            text = text.replace(json.dumps(vectors[0][0]), "NaN", 1)
        return 200, text.encode(), {}

    def close(self):
        self.server.shutdown()
        self.server.server_close()
