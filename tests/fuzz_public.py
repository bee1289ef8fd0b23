"""The fuzz suite's case for the public Python API (docs/python.md; issue 43, finding 5).

A case calls one of ``pywall.verify``, ``parse_record``, ``walls``, ``shanten``,
``effective_tiles`` or ``audit`` with arguments of many types: right and wrong types,
counts at and past the bounds (a billion rounds, a million jobs, a bool), endless
iterators, text with lone surrogates, the real seed. It may only return, raise a
``PywallError``, or raise a ``TypeError`` from pywall's own checks (``pywall/api``); the
fuzz run bounds its time and memory as for any case.

A case is bytes like every other (saved, replayed): JSON ``{"fn", "args", "kwargs"}``
whose values are tagged (``["int", "1000"]``, ``["pow10", 9]``, ``["repeat", 1]``, ...). Random bytes
(the run's junk and hypothesis phases) are given to each function as they are.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.helpers import vector_seed

#: Each function and how many positional arguments it takes (fewest, most): a call of
#: another arity is Python's own TypeError, not the API's.
FUNCTIONS = {
    "verify": (1, 1),
    "parse_record": (1, 1),
    "walls": (2, 3),
    "shanten": (1, 1),
    "effective_tiles": (1, 1),
    "audit": (1, 1),
}
API = Path(__file__).resolve().parent.parent / "pywall" / "api"
RECORD_STARTS = ("<", "{", "[", '<mjloggm ver="2.3">', '{"head": ')


class Failure(Exception):
    """A broken promise of docs/python.md."""


def _value(rng: random.Random, depth: int = 0) -> list[Any]:
    """One tagged argument value."""
    kinds = ["int", "bigint", "float", "bool", "none", "str", "bytes", "surrogate", "seed"]
    kinds += ["repeat", "count", "dict", "set", "path"] + (["list"] * 2 if depth < 2 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return ["int", str(rng.choice([-1, 0, 1, 2, 3, 4, 5, 34, 999, 1000, 1001, 256, 257]))]
    if kind == "bigint":
        return ["pow10", rng.choice([9, 6, -30, 5000])]  # -30: -(10**30)
    if kind == "float":
        return ["float", rng.choice(["2.5", "1.0", "nan", "inf", "-0.0", "3.0"])]
    if kind == "bool":
        return ["bool", rng.random() < 0.5]
    if kind in ("str", "surrogate"):
        text = rng.choice(RECORD_STARTS + ("123m456p789s1122z", "1" * 2000 + "m", "x"))
        return ["str", text + ("\ud800" if kind == "surrogate" else "")]
    if kind == "bytes":
        return ["bytes", base64.b64encode(rng.randbytes(rng.randint(0, 64))).decode()]
    if kind in ("repeat", "path"):
        return [kind, rng.randint(0, 5)]
    if kind == "list":
        size = rng.choice([0, 1, 3, 33, 34, 35])
        item = _value(rng, depth + 1) if rng.random() < 0.3 else ["int", str(rng.randint(0, 4))]
        return ["list", [item] * size]
    return [kind]


def public_case(rng: random.Random) -> bytes:
    """A call of one public function with arguments of many types."""
    fn = rng.choice(list(FUNCTIONS))
    args = [_value(rng) for _ in range(rng.randint(*FUNCTIONS[fn]))]
    if fn == "walls" and args and rng.random() < 0.6:
        args[0] = ["seed"]
    kwargs: dict[str, list[Any]] = {}
    if fn == "audit" and rng.random() < 0.7:
        kwargs["jobs"] = rng.choice([["str", "2"], ["float", "2.5"], ["bool", True], _value(rng)])
        if kwargs["jobs"][0] == "int" and 1 < abs(int(kwargs["jobs"][1])) <= 256:
            kwargs["jobs"] = ["int", "1"]  # processes cost more than a case's time here
    return json.dumps({"fn": fn, "args": args, "kwargs": kwargs}).encode()


def _decoded(tagged: list[Any]) -> object:
    kind, *rest = tagged
    makers: dict[str, Callable[[], object]] = {
        "int": lambda: int(rest[0]),
        "pow10": lambda: (-1 if rest[0] < 0 else 1) * 10 ** min(abs(int(rest[0])), 6000),
        "float": lambda: float(rest[0]),
        "bool": lambda: bool(rest[0]),
        "none": lambda: None,
        "str": lambda: rest[0],
        "bytes": lambda: base64.b64decode(rest[0]),
        "seed": vector_seed,
        "repeat": lambda: itertools.repeat(rest[0]),
        "count": itertools.count,
        "dict": lambda: {"a": 1},
        "set": lambda: {1, 2},
        "path": lambda: Path(f"fuzz-missing-{rest[0]}.xml"),  # a file that is not there
        "list": lambda: [_decoded(v) for v in rest[0]],
    }
    return makers[kind]()


def calls(case: bytes) -> Iterator[tuple[str, list[object], dict[str, object]]]:
    """The calls a case makes: its own, or (random bytes) each function on the bytes."""
    try:
        call = json.loads(case)
        fn = call["fn"] if call["fn"] in FUNCTIONS else "verify"
        fewest, most = FUNCTIONS[fn]
        args = [_decoded(v) for v in call["args"][:most]]
        args += [None] * (fewest - len(args))
        kwargs = {str(k): _decoded(v) for k, v in call["kwargs"].items()}
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError):
        text = "<" + _text(case)
        for fn in ("verify", "parse_record"):
            yield fn, [case], {}
            yield fn, [text], {}
        yield "walls", [text, len(case)], {}
        yield "shanten", [text[1:]], {}
        yield "shanten", [list(case)], {}
        return
    yield fn, args, kwargs


def _text(case: bytes) -> str:
    """The case as text: lone surrogates kept (``surrogatepass``), other bad bytes replaced."""
    try:
        return case.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return case.decode("utf-8", "replace")


def public_reader(case: bytes) -> object:
    """Each call of the case: it returns, or raises a ``PywallError`` (which the run
    accepts) or a ``TypeError`` raised by pywall's own checks (a ``Failure`` if not)."""
    import pywall
    from pywall.core.errors import PywallError

    answers: list[object] = []
    for fn, args, kwargs in calls(case):
        try:
            answers.append(getattr(pywall, fn)(*args, **kwargs))
        except PywallError as exc:
            answers.append(exc)
        except TypeError as exc:
            if not _raised_by_the_api(exc):
                raise Failure(f"{fn}: a TypeError from deeper down: {exc}") from exc
            answers.append(exc)
    return answers


def _raised_by_the_api(exc: BaseException) -> bool:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and Path(tb.tb_frame.f_code.co_filename).resolve().parent == API
