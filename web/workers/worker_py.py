"""Glue between worker.mjs and pywall.page.api, run inside Pyodide.

Thin on purpose: every request goes to ``pywall.page.api.handle`` (one entry point,
JSON text in and out, a file's bytes beside it). The only thing added here is
the ``Opener`` for archives: worker.mjs mounts the chosen File read-only at a
path, and the input layer the CLI uses reads its games from there, from any
game on (each of the page's workers reads its own chunks of the same File).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pywall
from pywall.core.archives import MAX_INPUT_BYTES
from pywall.inputs.sources import ArchiveSource  # the CLI's input layer, from any game on
from pywall.page import api  # imported now, so that "ready" means ready


def _open_archive(path: str, label: str) -> ArchiveSource:
    return ArchiveSource(Path(path), label)


_API = api.Api(_open_archive)


def _bytes(data: object) -> bytes | None:
    """A file's bytes as the page passes them; JavaScript's null or undefined is None."""
    if data is None or type(data).__name__ in ("JsNull", "JsUndefined"):
        return None
    to_bytes = getattr(data, "to_bytes", None)  # a JsProxy of a Uint8Array
    if to_bytes is not None:
        return bytes(to_bytes())
    return bytes(data)  # type: ignore[call-overload,no-any-return]


def info() -> str:
    """Versions, and the largest log the readers take (the page refuses bigger logs
    handed to it by message before copying them into Python)."""
    limits = {"log_bytes": MAX_INPUT_BYTES}
    return json.dumps(
        {"pywall": pywall.__version__, "python": sys.version.split()[0], "limits": limits}
    )


def start() -> str:
    """``info()``, once the interpreter is up. It may come from the site's start-up
    snapshot (web/workers/make_snapshot.mjs: this module imported already), the same memory
    for every visitor: the shared ``random`` gets a fresh seed of its own here."""
    random.seed()
    return info()


def handle(kind: str, payload_json: str, data: object = None) -> str:
    """One request: ``pywall.page.api.handle`` with this worker's archive runs."""
    return api.handle(str(kind), str(payload_json), _bytes(data), _API)


#: Made-up games in the archive warm-up's zip (``warm_archive``).
WARM_GAMES = 3
_WARM_RUN = "warm-up"


class _ArchiveWarmUp:
    """The archive warm-up in steps (each a turn of the worker's queue, so that a request
    that comes meanwhile waits for one step only): the zip written and the run opened,
    then one game checked and tallied a step, then the run closed and the zip deleted."""

    def __init__(self, folder: str) -> None:
        self.path = Path(folder) / "pywall-warm-up.zip"
        self.games = 0
        self.opened = False

    def step(self) -> bool:
        """One step; False once the last game is tallied (the run is then closed)."""
        if not self.opened:
            self._open()
            return True
        chunk = json.loads(
            handle("archive_next", json.dumps({"run": _WARM_RUN, "start": self.games, "limit": 1}))
        )
        records = chunk.get("records", [])
        tally = {"run": _WARM_RUN, "start": self.games, "records": records}
        handle("tally_add", json.dumps(tally))
        self.games += len(chunk.get("rows", []))
        if chunk.get("done") or self.games >= WARM_GAMES:
            self.close()
            return False
        return True

    def _open(self) -> None:
        import io
        import zipfile

        from pywall.page.warmup import made_up_log

        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for i in range(WARM_GAMES):
                z.writestr(f"warm-{i}.mjlog", made_up_log())
        self.path.write_bytes(buffer.getvalue())
        self.opened = True
        opened = {
            "run": _WARM_RUN,
            "path": str(self.path),
            "label": self.path.name,
            "records": True,
        }
        json.loads(handle("archive_open", json.dumps(opened)))

    def close(self) -> None:
        """The run and its tally let go, the zip deleted (also when the steps stop early)."""
        handle("archive_close", json.dumps({"run": _WARM_RUN}))
        self.path.unlink(missing_ok=True)


_warming: _ArchiveWarmUp | None = None


def warm_archive_step(folder: str = "/tmp") -> bool:
    """One step of the archive warm-up (``_ArchiveWarmUp``), the first one starting it:
    the archive path run on a zip of made-up games, through the requests a real run makes
    (``archive_open``, ``archive_next`` with audit records, ``tally_add``,
    ``archive_close``). It imports the archive and audit modules and lets the browser
    compile their code: WebKit runs WebAssembly code it has not run before slowly (a fresh
    page's first archive chunk took 2-10x its later ones), and worker.mjs runs these steps
    there while the worker is idle after start-up. False once it is over (nothing left)."""
    global _warming
    if _warming is None:
        _warming = _ArchiveWarmUp(folder)
    if _warming.step():
        return True
    _warming = None
    return False


def warm_archive_stop() -> None:
    """The warm-up given up between two steps (a request came): nothing is left."""
    global _warming
    if _warming is not None:
        _warming.close()
        _warming = None


def warm_archive(folder: str = "/tmp") -> str:
    """Every step of the archive warm-up at once; the games checked, as JSON ``{"games": n}``."""
    warming = _ArchiveWarmUp(folder)
    try:
        while warming.step():
            pass
    finally:
        warming.close()  # idempotent: closing a closed run is a no-op
    return json.dumps({"games": warming.games})
