"""phoenix-logs SQLite databases, read without trusting them.

phoenix-logs (MahjongRepository/phoenix-logs, the usual downloader of Tenhou's
houou games) keeps one row per game in the table ``logs``: ``log_id`` (Tenhou's
game id) and ``log_content``, the mjlog XML as ``bz2.compress`` wrote it. Only
rows with ``is_processed = 1 AND was_error = 0`` hold a downloaded game.
``pywall.core.archives`` decodes a row's content; this module runs the SQL.

A database is a program as much as data, so:

- It is opened read-only and immutable (``?mode=ro&immutable=1``): no lock, no
  ``-shm`` or ``-wal`` file is ever created beside it, and it reads from a
  read-only folder. (A WAL database's uncheckpointed changes are not seen.)
- ``logs`` must be a real table (``sqlite_master``), not a view, which could
  run any query (a recursive one never ends), nor a virtual table.
- Every statement step has a time budget, enforced by SQLite's progress
  handler, and Ctrl-C aborts a running statement.
- Sizes are measured in bytes (``length(CAST(x AS BLOB))``; ``length`` of TEXT
  counts characters) and a cell over the cap is never loaded; rows are read
  one at a time, so only one row's content is in flight here.

The page's workers each read their own chunks of one database: a first pass
(``survey_phoenix``, as cheap as counting: no log is loaded) notes the rowid of
every ``MARK_EVERY``-th game, and ``iter_phoenix(..., start=n)`` seeks to the
mark before game ``n`` (the table's own rowid b-tree) and skips the few rows
after it without loading them. The table's scan order is its rowid order, so
game ``n`` is the same game either way.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path

from pywall.core.archives import MAX_INPUT_BYTES, PackedEntry, iter_phoenix_rows
from pywall.core.errors import LogFormatError

PHOENIX_COLUMNS = ("log_id", "is_processed", "was_error", "log_content")
PHOENIX_WHERE = "is_processed = 1 AND was_error = 0"
MAX_CONTENT_BYTES = MAX_INPUT_BYTES * 4 // 3 + 4  # base64 of the largest log
MAX_ID_BYTES = 256
STEP_SECONDS = 10.0
PROGRESS_EVERY = 10_000  # SQLite VM instructions between two looks at the clock
#: Every field as bytes whatever its storage class (a TEXT cell holding binary
#: would otherwise fail to decode); content over the cap is not even loaded.
#: NOT INDEXED: one sequential pass in the table's own (rowid) order.
PHOENIX_QUERY = (
    "SELECT substr(CAST(log_id AS BLOB), 1, ?), "
    "CASE WHEN length(CAST(log_content AS BLOB)) <= ? THEN CAST(log_content AS BLOB) END, "
    "length(CAST(log_content AS BLOB)) "
    f"FROM logs NOT INDEXED WHERE {PHOENIX_WHERE}"
)
PHOENIX_COUNT = f"SELECT COUNT(*) FROM logs WHERE {PHOENIX_WHERE}"
#: Seeking: from a rowid on, in rowid order (the scan's order), skipping ? rows unloaded.
PHOENIX_FROM = " AND {rowid} >= ? ORDER BY {rowid} LIMIT -1 OFFSET ?"
PHOENIX_ROWIDS = "SELECT {rowid} FROM logs NOT INDEXED WHERE " + PHOENIX_WHERE
#: Names SQLite gives a table's rowid, unless a real column takes the name.
ROWID_NAMES = ("rowid", "_rowid_", "oid")
#: What reading a database may raise: SQLite's errors, and UnicodeDecodeError where
#: sqlite3 decodes an error message that quotes a damaged file's non-UTF-8 text.
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)
MARK_EVERY = 16  # games between two seek marks: a seek skips at most 15 rows
LOGS_ENTRY = "SELECT type, sql FROM sqlite_master WHERE lower(name) = 'logs'"


class Budget:
    """SQLite's progress handler: aborts a statement step over ``seconds``, or on Ctrl-C.

    ``start()`` before each step. A Ctrl-C that arrives while SQLite runs is
    raised inside this handler; it aborts the statement and ``interrupted``
    remembers it, for the caller to raise again (sqlite3 swallows errors
    raised in callbacks).
    """

    def __init__(self, conn: sqlite3.Connection, seconds: float = STEP_SECONDS) -> None:
        self.seconds = seconds
        self.deadline = 0.0
        self.interrupted = False
        self.start()
        conn.set_progress_handler(self._check, PROGRESS_EVERY)

    def start(self) -> None:
        self.deadline = time.monotonic() + self.seconds

    def _check(self) -> int:
        try:
            return int(time.monotonic() > self.deadline)
        except KeyboardInterrupt:
            self.interrupted = True
            return 1

    def reraise(self) -> None:
        if self.interrupted:
            raise KeyboardInterrupt


def open_database(path: Path) -> sqlite3.Connection:
    """Read-only and immutable: verifying never writes to, or beside, a database."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    # A damaged or hostile file's text (its schema, its tables' names) need not be UTF-8:
    # sqlite3 would raise UnicodeDecodeError (no sqlite3.Error) wherever it reads one.
    conn.text_factory = _text
    return conn


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def why(exc: Exception) -> str:
    """A database error's words (one of ``DB_ERRORS``; sqlite3 cannot decode SQLite's own
    message when it quotes such text: its bytes are shown with replacements)."""
    if isinstance(exc, UnicodeDecodeError) and isinstance(exc.object, bytes):
        return exc.object.decode("utf-8", "replace")
    return str(exc)


def _listing(conn: sqlite3.Connection) -> str:
    tables = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 9"
        ).fetchall()
    ]
    return ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "") if tables else "none"


def phoenix_problem(conn: sqlite3.Connection) -> str | None:
    """Why ``conn`` is not a phoenix-logs database, or None if it is one."""
    try:
        entry = conn.execute(LOGS_ENTRY).fetchone()
        if entry is None:
            return f"an SQLite database without the phoenix-logs table 'logs' (its tables: {_listing(conn)})"
        kind, sql = str(entry[0]), str(entry[1] or "")
        if kind != "table" or sql.lstrip().upper().startswith("CREATE VIRTUAL"):
            shown = "a virtual table" if kind == "table" else f"a {kind}"
            return f"its 'logs' is {shown}, not a table: pywall reads only phoenix-logs' real table"
        columns = {str(r[1]).lower() for r in conn.execute("PRAGMA table_info(logs)").fetchall()}
    except DB_ERRORS as exc:
        return f"an SQLite file that cannot be read ({why(exc)})"
    missing = [c for c in PHOENIX_COLUMNS if c not in columns]
    if missing:
        return f"its table 'logs' is not phoenix-logs': no column {', '.join(missing)}"
    return None


def count_phoenix(conn: sqlite3.Connection) -> int:
    """How many downloaded games (the rows ``iter_phoenix`` verifies) the database holds."""
    budget = Budget(conn)
    try:
        if phoenix_problem(conn):
            return 1
        return max(int(conn.execute(PHOENIX_COUNT).fetchone()[0]), 1)
    except DB_ERRORS:
        budget.reraise()
        return 1


def rowid_name(conn: sqlite3.Connection) -> str | None:
    """What the rowid of ``logs`` is called here (a column may take a name), or None."""
    columns = {str(r[1]).lower() for r in conn.execute("PRAGMA table_info(logs)").fetchall()}
    return next((n for n in ROWID_NAMES if n not in columns), None)


def survey_phoenix(conn: sqlite3.Connection) -> tuple[int, list[int] | None]:
    """The count ``count_phoenix`` gives, and the rowid of every ``MARK_EVERY``-th game
    (for ``iter_phoenix(start=...)``), or None where it cannot seek (not phoenix-logs',
    a table WITHOUT ROWID): such a database is read from its start only."""
    budget = Budget(conn)
    try:
        name = None if phoenix_problem(conn) else rowid_name(conn)
        if name is None:
            return count_phoenix(conn), None
        marks: list[int] = []
        count = 0
        cursor = conn.execute(PHOENIX_ROWIDS.format(rowid=name))
        while True:
            budget.start()
            row = cursor.fetchone()
            if row is None:
                return max(count, 1), marks
            if count % MARK_EVERY == 0:
                marks.append(int(row[0]))
            count += 1
    except (sqlite3.Error, TypeError, ValueError):
        budget.reraise()
        return count_phoenix(conn), None


def _phoenix_cursor(
    conn: sqlite3.Connection, start: int, marks: Sequence[int] | None
) -> sqlite3.Cursor:
    """The rows from game ``start`` (0-based) on, seeking by ``marks`` past the first."""
    params = (MAX_ID_BYTES, MAX_CONTENT_BYTES)
    if not start:
        return conn.execute(PHOENIX_QUERY, params)
    name = rowid_name(conn)
    if marks is None or name is None:
        raise LogFormatError("this database cannot be read from the middle")
    mark = start // MARK_EVERY
    if mark >= len(marks):
        return conn.execute(PHOENIX_QUERY + " LIMIT 0", params)
    query = PHOENIX_QUERY + PHOENIX_FROM.format(rowid=name)
    return conn.execute(query, (*params, marks[mark], start - mark * MARK_EVERY))


def iter_phoenix(
    conn: sqlite3.Connection,
    label: str,
    packed: bool = False,
    start: int = 0,
    marks: Sequence[int] | None = None,
) -> Iterator[PackedEntry]:
    """Every downloaded game of a phoenix-logs database, one row at a time; from game
    ``start`` (0-based) on with the ``marks`` of ``survey_phoenix``.

    A database that is not phoenix-logs', or that breaks off mid-way (or runs
    over its time budget), is one error entry named ``label``; a bad row is one
    error entry of its own.
    """
    budget = Budget(conn)
    problem = phoenix_problem(conn)
    budget.reraise()
    if problem:
        if not start:
            yield label, LogFormatError(problem)
        return
    seen = start
    try:
        cursor = _phoenix_cursor(conn, start, marks)
        while True:
            budget.start()
            row = cursor.fetchone()
            if row is None:
                break
            seen += 1
            yield from iter_phoenix_rows([row], label, packed, seen)
    except DB_ERRORS as exc:
        budget.reraise()
        words = "a query ran over its time budget" if "interrupted" in str(exc) else why(exc)
        yield label, LogFormatError(f"the database cannot be read past row {seen:,} ({words})")
        return
    except LogFormatError as exc:
        yield label, exc
        return
    if not seen:
        yield (
            label,
            LogFormatError(
                f"no downloaded game in this phoenix-logs database (no row with {PHOENIX_WHERE})"
            ),
        )


def unopenable(exc: Exception) -> LogFormatError:
    return LogFormatError(f"this SQLite database cannot be opened ({why(exc)})")


def iter_database(path: Path, packed: bool, label: str) -> Iterator[PackedEntry]:
    try:
        conn = open_database(path)
    except DB_ERRORS as exc:
        yield label, unopenable(exc)
        return
    with closing(conn):
        yield from iter_phoenix(conn, label, packed)


def count_database(path: Path) -> int:
    try:
        with closing(open_database(path)) as conn:
            return count_phoenix(conn)
    except DB_ERRORS:
        return 1
