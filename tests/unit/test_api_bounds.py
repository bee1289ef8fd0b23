"""The public functions' bounds (docs/python.md): the CLI's caps, a ``TypeError`` for a
wrong type and a ``ValueInputError`` for a bad value, each raised by pywall's own check in
plain words, never an exception from deeper down, and always in bounded time."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pywall
from pywall.core.errors import PywallError, SeedError, ValueInputError
from pywall.core.limits import MAX_JOBS, MAX_SEED_CHARS, MAX_WALL_ROUNDS
from tests.helpers import vector_seed

SEED = vector_seed()
#: Seconds any call may take here (a thousand rounds of walls take about 0.2 s; the
#: machine is shared).
BUDGET = 10.0
API = Path(pywall.__file__).parent / "api"


def a_view(data: bytes) -> memoryview:
    return memoryview(data)


class BytesPath:
    """A path object whose ``__fspath__`` gives bytes (``os.PathLike[bytes]``)."""

    def __fspath__(self) -> bytes:
        return b"game.xml"


def call(
    func: Callable[..., object], *args: Any, **kwargs: Any
) -> tuple[object, BaseException | None]:
    """What ``func`` returned or raised; fails when it takes over ``BUDGET`` or raises
    anything but ``TypeError`` (pywall's own, from ``pywall/api``) or a ``PywallError``."""
    start = time.monotonic()
    try:
        return func(*args, **kwargs), None
    except PywallError as exc:
        return None, exc
    except TypeError as exc:
        assert raised_by_the_api(exc), f"a TypeError from deeper down: {exc}"
        return None, exc
    finally:
        assert time.monotonic() - start < BUDGET, f"{func.__name__} took too long"


def raised_by_the_api(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a line of ``pywall/api`` (its checks), not below."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and Path(tb.tb_frame.f_code.co_filename).parent == API


#: The issue's cases (issue 43, finding 5) and their neighbours: what each call raises
#: and words its message holds.
CASES: list[tuple[str, Callable[..., object], tuple[Any, ...], dict[str, Any], type, str]] = [
    ("walls-a-billion-rounds", pywall.walls, (SEED, 10**9), {}, ValueInputError,
     "rounds must be from 1 to 1,000, not 1,000,000,000"),
    ("walls-a-googol-rounds", pywall.walls, (SEED, 10**5000), {}, ValueInputError,
     "not a number of about 5,000 digits"),
    ("walls-no-rounds", pywall.walls, (SEED, 0), {}, ValueInputError, "from 1 to 1,000, not 0"),
    ("walls-seed-bytes", pywall.walls, (SEED.encode(), 1), {}, TypeError,
     "walls takes the seed as text (str), not bytes"),
    ("walls-seed-none", pywall.walls, (None, 1), {}, TypeError, "not NoneType"),
    ("walls-rounds-float", pywall.walls, (SEED, 2.5), {}, TypeError,
     "rounds is a whole number (int), not float"),
    ("walls-rounds-bool", pywall.walls, (SEED, True), {}, TypeError, "not bool"),
    ("walls-rounds-text", pywall.walls, (SEED, "2"), {}, TypeError, "not str"),
    ("walls-players-float", pywall.walls, (SEED, 1, 3.0), {}, TypeError,
     "players is a whole number (int), not float"),
    ("walls-players-five", pywall.walls, (SEED, 1, 5), {}, ValueInputError,
     "players must be 3 or 4, not 5"),
    ("walls-seed-too-long", pywall.walls, ("A" * (MAX_SEED_CHARS + 1), 1), {}, SeedError,
     "pywall reads seeds of up to 65,536"),
    ("audit-jobs-text", pywall.audit, ([b"junk"],), {"jobs": "2"}, TypeError,
     "jobs is a whole number (int), not str"),
    ("audit-jobs-float", pywall.audit, ([b"junk"],), {"jobs": 2.5}, TypeError, "not float"),
    ("audit-jobs-bool", pywall.audit, ([b"junk"],), {"jobs": True}, TypeError, "not bool"),
    ("audit-jobs-zero", pywall.audit, ([b"junk"],), {"jobs": 0}, ValueInputError,
     f"jobs must be from 1 to {MAX_JOBS}, not 0"),
    ("audit-jobs-a-million", pywall.audit, ([b"junk"],), {"jobs": 10**6}, ValueInputError,
     "not 1,000,000"),
    ("audit-none", pywall.audit, (None,), {}, TypeError,
     "audit takes a path, a record's bytes, or a list of them"),
    ("audit-a-set", pywall.audit, ({b"junk"},), {}, TypeError, "not set"),
    ("audit-a-dict", pywall.audit, ({"a.xml": 1},), {}, TypeError, "not dict"),
    ("audit-a-float-source", pywall.audit, ([b"junk", 3.5],), {}, TypeError,
     "audit takes paths (str or os.PathLike) or records' bytes, not float"),
    ("audit-a-bytes-path", pywall.audit, ([BytesPath()],), {}, TypeError,
     "audit takes a path as text, not a path of bytes"),
    ("verify-a-bytes-path", pywall.verify, (BytesPath(),), {}, TypeError,
     "verify takes a path as text"),
    ("shanten-endless", pywall.shanten, (itertools.repeat(0),), {}, ValueInputError,
     "a hand of counts has 34 of them"),
    ("effective-endless", pywall.effective_tiles, (itertools.count(),), {}, ValueInputError,
     "has 34 of them"),
    ("shanten-33-counts", pywall.shanten, ([1] * 13 + [0] * 20,), {}, ValueInputError,
     "has 34 of them (1-9m, 1-9p, 1-9s, 1-7z), not 33"),
    ("shanten-bools", pywall.shanten, ([True] * 13 + [False] * 21,), {}, TypeError,
     "each of a hand's 34 counts is a whole number (int), not bool"),
    ("shanten-floats", pywall.shanten, ([1.0] * 13 + [0] * 21,), {}, TypeError, "not float"),
    ("shanten-bytes", pywall.shanten, (b"123m456p789s1122z",), {}, TypeError,
     "a hand is mpsz text (e.g. 123m456p) or 34 counts of 0 to 4, not bytes"),
    ("shanten-none", pywall.shanten, (None,), {}, TypeError, "not NoneType"),
    ("shanten-a-dict", pywall.shanten, ({0: 1},), {}, TypeError, "not dict"),
    ("shanten-long-text", pywall.shanten, ("1" * 10**6 + "m",), {}, ValueInputError,
     "the hand is 1,000,001 characters of mpsz text"),
    ("shanten-five-copies", pywall.shanten, ([5] + [0] * 33,), {}, ValueInputError,
     "counts are 0 to 4"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("func", "args", "kwargs", "raised", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_bad_argument_is_refused_in_plain_words(
    func: Callable[..., object],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    raised: type,
    words: str,
) -> None:
    _, exc = call(func, *args, **kwargs)
    assert type(exc) is raised, exc
    assert words in str(exc)


def test_the_bounds_are_the_commands() -> None:
    """The same caps as ``pywall wall --rounds`` (1 to 1,000) and ``--jobs``."""
    assert len(pywall.walls(SEED, MAX_WALL_ROUNDS)) == MAX_WALL_ROUNDS
    assert len(pywall.walls(SEED, 1, 3)[0].tiles) == 108
    assert pywall.shanten(tuple([1] * 13 + [0] * 21)) == pywall.shanten(iter([1] * 13 + [0] * 21))


def test_verify_of_text_with_a_lone_surrogate_is_an_error_report() -> None:
    """docs/python.md: ``verify`` never raises on bad data (it raised UnicodeEncodeError)."""
    report = pywall.verify('<mjloggm ver="2.3">\ud800</mjloggm>')
    assert report.status == "error"
    assert "lone surrogate (U+D800 at character 19)" in report.errors[0].message
    huge = pywall.verify("<" + " " * (16 << 20))
    assert huge.status == "error" and "16,777,216 bytes" in huge.errors[0].message


# --- any argument of any type: only TypeError or a PywallError, in bounded time ---------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(),
    st.complex_numbers(),
    st.decimals(),
    st.text(max_size=40),
    st.binary(max_size=40),
)
ANY = st.one_of(
    SCALARS,
    st.lists(st.integers(min_value=-2, max_value=6), max_size=40),
    st.lists(SCALARS, max_size=5),
    st.tuples(SCALARS, SCALARS),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.frozensets(st.integers(), max_size=3),
    st.builds(itertools.repeat, st.integers(min_value=0, max_value=4)),
    st.builds(itertools.count),
    st.builds(bytearray, st.binary(max_size=20)),
    st.binary(max_size=20).map(a_view),
    st.just(BytesPath()),
)
#: Text a path may be: never ``/`` nor ``..`` (a walk of the machine's folders).
PATH_TEXT = st.text(max_size=30).filter(lambda t: "/" not in t and t.strip() not in ("..", "~"))
RECORD_TEXT = st.builds(
    lambda start, rest: start + rest,
    st.sampled_from(["<", "{", "[", '<mjloggm ver="2.3">', '{"head":', " \ufeff<"]),
    st.text(max_size=200),
)
SOURCE = st.one_of(
    st.none(), st.integers(), st.floats(), st.binary(max_size=200), RECORD_TEXT, PATH_TEXT,
    st.builds(Path, PATH_TEXT), st.just(BytesPath()),
    st.builds(bytearray, st.binary(max_size=50)),
)  # fmt: skip
COUNTS = st.one_of(
    st.lists(st.integers(min_value=0, max_value=4), min_size=34, max_size=34),
    st.lists(st.one_of(st.integers(), st.booleans(), st.floats(), st.none()), max_size=36),
)
HAND = st.one_of(ANY, COUNTS, st.text(alphabet="0123456789mpsz \ud800", max_size=30))
SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@contextmanager
def in_an_empty_folder(tmp: Path) -> Iterator[None]:
    """Relative paths name nothing but what a case writes (the working folder is empty)."""
    before = Path.cwd()
    os.chdir(tmp)
    try:
        yield
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def empty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with in_an_empty_folder(tmp_path_factory.mktemp("api")):
        yield


@SETTINGS
@given(
    seed=st.one_of(ANY, st.just(SEED), st.just("mt19937ar," + ",".join(["1f"] * 8))),
    rounds=st.one_of(ANY, st.integers(min_value=-3, max_value=1003)),
    players=st.one_of(ANY, st.sampled_from([3, 4])),
)
def test_walls_of_anything(seed: Any, rounds: Any, players: Any) -> None:
    made, _ = call(pywall.walls, seed, rounds, players)
    if made is not None:
        assert isinstance(made, list) and 1 <= len(made) <= rounds <= MAX_WALL_ROUNDS


@SETTINGS
@given(hand=HAND)
def test_shanten_and_effective_tiles_of_anything(hand: Any) -> None:
    made = itertools.tee(hand) if isinstance(hand, Iterator) else (hand, hand)  # read twice
    found, _ = call(pywall.shanten, made[0])
    assert found is None or isinstance(found, int)
    call(pywall.effective_tiles, made[1])


@SETTINGS
@given(data=st.one_of(ANY, SOURCE))
def test_verify_and_parse_record_of_anything(empty: None, data: Any) -> None:
    report, exc = call(pywall.verify, data)
    assert report is not None or isinstance(exc, TypeError)  # bad data: a report, not a raise
    call(pywall.parse_record, data)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    sources=st.one_of(ANY, SOURCE, st.lists(SOURCE, max_size=4)),
    jobs=st.one_of(st.just(1), ANY),
)
def test_audit_of_anything(empty: None, sources: Any, jobs: Any) -> None:
    call(pywall.audit, sources, jobs=jobs)
