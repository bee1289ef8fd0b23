"""A static host as many are: Python's own `http.server` (what `python3 -m http.server`
runs: no compression, no cache headers), counting the body bytes it sends per file.
With ``gzip_header``, it sends the site's packed ``.gz`` files with
``Content-Encoding: gzip``, as some hosts do (the browser then unpacks them itself)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class Counter:
    """Body bytes and response statuses per path."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bytes: dict[str, int] = defaultdict(int)
        self.responses: dict[str, list[int]] = defaultdict(list)

    def reset(self) -> None:
        with self.lock:
            self.bytes = defaultdict(int)
            self.responses = defaultdict(list)

    def add(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.bytes[path] += size
            self.responses[path].append(status)


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    counter: Counter
    gzip_header = False

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        outputfile.write(data)
        self.counter.add(self.path.split("?")[0], 200, len(data))

    def send_response(self, code: int, message: str | None = None) -> None:
        if code != 200:
            self.counter.add(self.path.split("?")[0], code, 0)
        super().send_response(code, message)

    def end_headers(self) -> None:
        if self.gzip_header and self.path.split("?")[0].endswith(".gz"):
            self.send_header("Content-Encoding", "gzip")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def plain_host(site: Path, gzip_header: bool = False) -> Iterator[tuple[str, Counter]]:
    """Serve ``site`` on a free port: (its URL, the counter)."""
    counter = Counter()
    handler_class = type(
        "Handler", (CountingHandler,), {"counter": counter, "gzip_header": gzip_header}
    )
    handler = functools.partial(handler_class, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", counter
    finally:
        server.shutdown()
        server.server_close()
