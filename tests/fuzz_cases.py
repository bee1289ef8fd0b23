"""What tests/fuzz.py reaches beyond the readers (issue 23, part 6).

- ``api.handle``, every request type, with payloads made by altering real ones: the
  page's own requests, built by asking the API about real logs and records (a verify
  reply gives the reports, rows and rounds that ``audit``, ``csv``, ``wall_svg`` and
  ``hands`` take; an archive run gives the audit records ``tally_add`` takes). A reply
  must be JSON, never an ``internal`` error, and an SVG must be well-formed XML.
- ``links.link_from_text`` on altered links and ids; ``game_lists.games_from_text`` on
  lists of them, in pasted text and pages, and past the cap on games.
- The CLI's text for people (``cli.verify.human_lines`` through ``escaped``) on reports
  whose names and paths carry the altered bytes: no control or bidi character may
  reach the terminal, and its JSON Lines form reads back as the report.
- Inputs small in bytes but large in work (``work:`` readers): logs and records
  repeated or packed from real ones, measured per case with tracemalloc.

A case is bytes, like every other case (saved under fuzz-failures/, replayed with
``--replay``): an API case is a JSON envelope ``{"kind", "payload", "data"}``.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import random
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.dom import minidom

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
LOG = DATA / "tenhou" / "tenhou-python-bot" / "1.txt"
MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RC = DATA / "riichicity" / "gameDataSample.json"
SHA = DATA / "majsoul" / "riichienv_mjsoul_corpus_validation.json"
LINKS = [
    "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3",
    "2009082812gm-00e1-0000-47dd79cf",
    "https://tenhou.net/3/?log=2016022509gm-0009-0000-x1234567890ab&ts=2",
    "https://game.maj-soul.com/1/?paipu=210815-6da08e40-2605-42fb-a5e3-f8aa5940362a_a12345678",
    "http://tenhou.net/5/#json=2022060222gm-0001-0000-a87679bc",
    "tenhou.net/6/?log=2022060223gm-0001-0000-b8e20009",
]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2**63,
    1e308,
    "",
    "x" * 300,
    "\ud800",
    "\u202e\x1b[31m",
    [],
    {},
    [[]],
    {"": {}},
    "[" * 100,
    "1m2m",
    -(2**31),
    136,
    255,
    4,
]


class Failure(Exception):
    """A property of the output that does not hold (a bug like an unexpected exception)."""


def archive_source(data: bytes) -> object:
    """The page's shared archive reader, as two workers use it: the first surveys the file
    and reads it from its start, the second adopts that survey and reads from the middle."""
    from pywall.inputs.sources import ArchiveSource

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.bin"
        path.write_bytes(data)
        first = ArchiveSource(path, "fuzz")
        try:
            survey = first.survey()
            out = list(first.entries(0))
        finally:
            first.close()
        second = ArchiveSource(path, "fuzz")
        try:
            second.adopt(survey)
            out += list(second.entries(survey.total // 2))
        finally:
            second.close()
        return out


# --- the page's real requests -----------------------------------------------------------------


def real_payloads() -> list[tuple[str, dict[str, Any], bytes | None]]:
    """(kind, payload, file bytes) for every request type, from real logs and records."""
    from pywall.page import api

    log = LOG.read_bytes()
    reply = json.loads(api.handle("verify", json.dumps({"name": "1.txt"}), log))
    report, rnd = reply["files"][0], reply["files"][0]["rounds"][1]
    seed = log.split(b'seed="', 1)[1].split(b'"', 1)[0].decode()
    records = _archive_records(log)
    return [
        ("verify", {"name": "1.txt"}, log),
        ("verify", {"name": MS.name}, MS.read_bytes()),
        ("walls", {"seed": seed, "rounds": 3, "players": 4}, None),
        ("csv", {"rows": reply["rows"]}, None),
        (
            "wall_svg",
            {
                "round": rnd,
                "names": report["game"]["players"],
                "red": True,
                "title": "East 2",
                "labels": {"dead": "dead wall"},
            },
            None,
        ),
        ("audit", {"reports": [report], "runs": ["r"], "tallies": []}, None),
        ("tally_add", {"run": "r", "start": 0, "records": records}, None),
        ("tally", {"run": "r"}, None),
        ("commitment", {"text": "a" * 128, "seed": seed, "names": report["game"]["players"]}, None),
        ("sega", {"seeds": ["a" * 27, "b" * 27, "c" * 27, "d" * 27], "uncertainty": "12"}, None),
        ("majsoul", {"record": SHA.read_text(encoding="utf-8")}, None),
        ("majsoul", {"paishan": "1m" * 68, "salt": "s", "sha256": "0" * 64}, None),
        ("shanten", {"hand": "123m406p789s1122z", "visible": "1z"}, None),
        ("hands", {"round": rnd}, None),
        ("link", {"text": LINKS[0], "round": 2, "seat": 1}, None),
        ("sniff", {}, b"PK\x03\x04"),
        ("warm_up", {"times": 1}, None),
    ]


def _archive_records(log: bytes) -> list[Any]:
    """The audit records a shared archive run sends back (what ``tally_add`` takes)."""
    from pywall.inputs.sources import ArchiveSource
    from pywall.page import api

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.zip"
        with zipfile.ZipFile(path, "w") as zf:
            for i in range(3):
                zf.writestr(f"{i}.xml", log)
        run = api.Api(lambda p, label: ArchiveSource(Path(p), label))
        api.handle(
            "archive_open",
            json.dumps({"run": "a", "path": str(path), "label": "a.zip", "records": True}),
            None,
            run,
        )
        chunk = json.loads(
            api.handle("archive_next", json.dumps({"run": "a", "limit": 3}), None, run)
        )
        api.handle("archive_close", json.dumps({"run": "a"}), None, run)
    return list(chunk.get("records", []))


def _alter(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """``value`` with one of its parts replaced, removed, repeated or retyped."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out[key + rng.choice(["", "_", "X"])] = rng.choice(ODD_VALUES)
        else:
            out[key] = _alter(value[key], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        items = list(value)
        i = rng.randrange(len(items))
        roll = rng.random()
        if roll < 0.2:
            del items[i]
        elif roll < 0.3:
            items = items * rng.randint(2, 50)
        else:
            items[i] = _alter(items[i], rng, depth + 1)
        return items
    if isinstance(value, str) and value and rng.random() < 0.5:
        i = rng.randrange(len(value))
        return (
            value[:i]
            + rng.choice(["\x00", "\u202e", "'", "<", "&", "9", "%", "]", "\ud800"])
            + value[i + 1 :]
        )
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-1, 1, -value - 1, 2**31, 136])
    return rng.choice(ODD_VALUES)


def api_case(rng: random.Random, payloads: list[tuple[str, dict[str, Any], bytes | None]]) -> bytes:
    kind, payload, data = rng.choice(payloads)
    for _ in range(rng.randint(1, 4)):
        payload = _alter(payload, rng)
    text = json.dumps(payload)
    if rng.random() < 0.1:  # the text itself cut or bracketed
        text = rng.choice(
            [text[: rng.randrange(len(text) + 1)], "[" * rng.randint(60, 70) + text, text + "]"]
        )
    if rng.random() < 0.05:
        kind = rng.choice(
            ["archive_next", "archive_close", "archive_game", "archive_open", "nothing", ""]
        )
    envelope = {
        "kind": kind,
        "payload": text,
        "data": base64.b64encode(data).decode() if data else None,
    }
    return json.dumps(envelope).encode()


def api_reader(case: bytes) -> object:
    from pywall.page import api

    try:
        envelope = json.loads(case)
        kind, payload = str(envelope["kind"]), str(envelope["payload"])
        data = base64.b64decode(envelope["data"]) if envelope["data"] else None
    except (ValueError, KeyError, TypeError):  # random bytes: a payload of their text
        kind, payload, data = "verify", _text(case), case
    reply = json.loads(api.handle(kind, payload, data, api.Api()))
    if reply.get("error", {}).get("code") == "internal":
        raise Failure(reply["error"]["message"])
    if "svg" in reply:
        minidom.parseString(reply["svg"])  # raises ExpatError when not well-formed
    return reply


def _text(case: bytes) -> str:
    """The case as text: lone surrogates kept (``surrogatepass``), other bad bytes replaced."""
    try:
        return case.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return case.decode("utf-8", "replace")


# --- links, and the text the CLI prints ---------------------------------------------------------


def link_case(rng: random.Random) -> bytes:
    text = rng.choice(LINKS)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        text = (
            text[:i]
            + rng.choice(
                [
                    "[",
                    "]",
                    "%",
                    "%ff",
                    "://",
                    "?",
                    "&tw=",
                    "x",
                    "0",
                    "\u0661",
                    "\ud800",
                    "#",
                    "@",
                    ":99999",
                    " ",
                    "\n",
                    "gm-",
                ]
            )
            + text[i + rng.randint(0, 3) :]
        )
    return text.encode("utf-8", "surrogatepass")


def link_reader(case: bytes) -> object:
    from pywall.formats.links import link_from_text

    found = link_from_text(_text(case))
    return found and (found.to_dict(), found.record_url, found.viewer_url)


def game_list_case(rng: random.Random) -> bytes:
    """A pasted list: links and ids, altered, between separators of lists and pages."""
    seps = ["\n", "\r\n", " ", ", ", "<br>", '">', "&amp;tw=1 ", "\u3000", "\t", ""]
    parts = []
    for _ in range(rng.randint(0, 40)):
        text = rng.choice(LINKS)
        parts.append(
            text if rng.random() < 0.5 else link_case(rng).decode("utf-8", "surrogatepass")
        )
        parts.append(rng.choice(seps))
    text = "".join(parts)
    if rng.random() < 0.1:  # past the cap on games: refused with words
        text += "\n".join(
            f"2022060222gm-0001-0000-{i:08x}" for i in range(rng.choice([999, 1001, 5000]))
        )
    return text.encode("utf-8", "surrogatepass")


def game_list_reader(case: bytes) -> object:
    """Each game once, at most the cap, each named in the text (as written or hidden)."""
    from pywall.formats.game_lists import MAX_GAMES, MAX_SHOWN, games_from_text

    text = _text(case)
    found = games_from_text(text)
    seen = [g.game_id for g in found.games]
    if len(seen) != len(set(seen)) or len(seen) > MAX_GAMES:
        raise Failure(f"{len(seen)} games, {len(set(seen))} distinct")
    for game in found.games:
        if (game.obfuscated or game.game_id) not in text:
            raise Failure(f"{game.game_id} is not in the text")
    if len(found.shown) > min(found.unread, MAX_SHOWN):
        raise Failure("more pieces shown than counted")
    return found.to_dict()


def escape_reader(case: bytes) -> object:
    """A real log whose first player's name and path are the case's text."""
    from pywall.cli.output import _UNSAFE
    from pywall.cli.verify import human_lines, render
    from pywall.results.check import check_log

    text = case.decode("utf-8", "replace")
    log = LOG.read_text(encoding="utf-8")
    start = log.index('n0="') + 4
    quoted = "".join(f"%{b:02X}" for b in case[:200])
    report = check_log(text, log[:start] + quoted + log[log.index('"', start) :])
    shown = "\n".join(human_lines(report))
    for line in render("human", report).split("\n"):
        if _UNSAFE.search(line):
            raise Failure(f"an unescaped character reaches the terminal: {line[:80]!r}")
    if json.loads(render("jsonl", report)) != json.loads(json.dumps(report.to_dict())):
        raise Failure("the JSON Lines form does not read back as the report")
    return shown


# --- small in bytes, large in work ----------------------------------------------------------------


def _rounds_of(log: str) -> tuple[str, str, str]:
    first = log.index("<INIT")
    second = log.index("<INIT", first + 1)
    return log[:first], log[first:second], log[first : log.index(">", first) + 1]


def work_case(rng: random.Random) -> bytes:
    """A log, record or archive built to cost work: repeated parts of real ones, packed."""
    log = LOG.read_text(encoding="utf-8")
    head, rnd, init = _rounds_of(log)
    n = rng.choice([10, 99, 101, 1000, 20_000, 60_000])
    kind = rng.randrange(7)
    if kind == 0:
        data = (head + init * n).encode()
    elif kind == 1:
        data = (head + rnd * min(n, 17_000)).encode()
    elif kind == 2:
        agari = '<AGARI who="0" fromWho="1" doraHai="0,4,8,12,16" doraHaiUra="1,5,9,13,17"/>'
        data = (
            head + (rnd + agari * rng.choice([10, 500, 2000])) * rng.choice([1, 10, 99])
        ).encode()
    elif kind == 3:
        unit = rng.choice(["{},", "[],", '"ab",', "1.5,", '{"a":[]},', "[" * 10])
        data = ('{"a":[' + unit * (min(n * 100, 16 << 20) // len(unit)) + "0]}").encode()
    elif kind == 4:
        record = json.loads(RC.read_text(encoding="utf-8"))
        record["data"]["handRecord"] *= rng.choice([2, 12, 120])
        data = json.dumps(record).encode()
    elif kind == 5:
        record = json.loads(MS.read_text(encoding="utf-8"))
        record["data"]["data"]["actions"] *= rng.choice([2, 12, 30])
        data = json.dumps(record).encode()
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for i in range(rng.choice([0, 1, 500, 5000])):
                zf.writestr(f"{i}.xml", b"")
        return buf.getvalue()
    return gzip.compress(data, 1) if rng.random() < 0.7 else data[: 16 << 20]


def work_readers() -> dict[str, Callable[[bytes], object]]:
    from pywall.inputs import zips
    from pywall.page import api
    from pywall.results.check import check_log

    return {
        "work:check_log": lambda data: check_log("work", data).to_dict(),
        "work:api.verify": lambda data: api.handle("verify", json.dumps({"name": "work"}), data),
        "work:zips.iter_zip": lambda data: list(zips.iter_zip(io.BytesIO(data), "work.zip")),
    }


# --- the draw walk on every platform's calls ----------------------------------------------

#: Real games whose calls the walk cases alter: chis, pons, open, closed and added kans
#: (Tenhou, Riichi City), Norths (Tenhou and Riichi City 3-player), Mahjong Soul's calls.
WALK_GAMES = (
    "tenhou/gimite/test.mjlog",
    "tenhou/dnovikoff/sanma2.xml",
    "tenhou/tenhou-python-bot/29.txt",
    "riichicity/4ma_gin_han_sample.json",
    "riichicity/cnrkj069nc7ajnvadk30.json",
    "majsoul/paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
    "majsoul/riichienv_mjsoul_corpus_validation.json",
    "choice",  # tests/unit/test_draw_walk.py: eight open three-way chis a round
)


def walk_case(rng: random.Random) -> bytes:
    """A walk case: which game and the seed of its alterations, as text."""
    return f"{rng.choice(WALK_GAMES)}\n{rng.randrange(1 << 32)}".encode()


def walk_reader(case: bytes) -> object:
    """The draw walk (``game_draws``) on a real game whose calls and events are altered
    by a seeded random: calls stripped of their tiles (the choice rule, as a Riichi City
    record without ``group_cards``), calls of another kind or naming other tiles, events
    dropped, repeated or swapped. It must answer (never raise), and its sums must hold
    together."""
    from pywall.analysis.draws import game_draws
    from pywall.core.errors import LogFormatError
    from pywall.formats import parse_record

    text = case.decode("utf-8", "replace").split("\n")
    if len(text) != 2 or text[0] not in WALK_GAMES or not text[1].isdigit():
        raise LogFormatError("not a walk case (a game of WALK_GAMES and a seed)")
    rng = random.Random(int(text[1]))
    if text[0] == "choice":
        from tests.unit.test_draw_walk import choice_game

        game = choice_game(rng.randint(1, 3), misfit=rng.random() < 0.5)
    else:
        game = parse_record((DATA / text[0]).read_bytes())
    rounds = tuple(_altered_round(r, rng) for r in game.rounds[: rng.randint(1, 4)])
    from dataclasses import replace

    result = game_draws(replace(game, rounds=rounds))
    if result.skipped_rounds != len(result.skipped_reasons):
        raise Failure("skipped_rounds and skipped_reasons disagree")
    for seat in result.seats:
        for sums in seat.sums():
            if not (0 <= sums.observed <= sums.n and -1e-9 <= sums.expected <= sums.n + 1e-9):
                raise Failure(f"a seat's sums do not hold together: {sums}")
    return result


def _altered_round(rnd: Any, rng: random.Random) -> Any:
    from dataclasses import replace

    from pywall.core.model import Call, Draw, MeldKind

    events = list(rnd.events)
    strip = rng.random() < 0.6
    for i, e in enumerate(events):
        if isinstance(e, Call) and strip:
            events[i] = replace(e, taken=())
    for _ in range(rng.choice([0, 1, 2, 5])):
        if not events:
            break
        i = rng.randrange(len(events))
        op = rng.randrange(6)
        e = events[i]
        if op == 0:
            del events[i]
        elif op == 1:
            events.insert(i, e)
        elif op == 2 and i + 1 < len(events):
            events[i], events[i + 1] = events[i + 1], e
        elif op == 3 and isinstance(e, Call):
            events[i] = replace(e, kind=rng.choice(list(MeldKind)))
        elif op == 4 and isinstance(e, Call):
            taken = tuple(rng.randrange(-4, 140) for _ in range(rng.randint(0, 5)))
            events[i] = replace(e, taken=taken)
        elif op == 5:
            seat = rng.randrange(len(rnd.hands))
            if rng.random() < 0.5:
                events.insert(i, Draw(seat, rng.randrange(136)))
            else:
                kind = rng.choice(list(MeldKind))
                events.insert(i, Call(seat, rng.randrange(136), kind))
    return replace(rnd, events=tuple(events))


# --- saved audit parts (issue 43): refused with words, never accepted if altered ---------------

_HONEST_PART: list[tuple[bytes, Any]] = []


def honest_part() -> tuple[bytes, Any]:
    """A part of three real games as ``pywall audit --save-tally`` saves it, and the JSON of
    what it counts (made once)."""
    if not _HONEST_PART:
        from pywall.audits.parts import ShardTally, part_dict, part_game
        from pywall.results.check import check_entry

        logs = [LOG, *sorted((DATA / "tenhou" / "tenhou-python-bot").glob("*.txt"))[1:3]]
        games = [
            part_game(check_entry(p.name, p.read_bytes(), starting=True).record, p.read_bytes())
            for p in logs
        ]
        counted = ShardTally(tuple(g.record for g in games)).tally().to_dict()
        _HONEST_PART.append(
            (json.dumps(part_dict(games)).encode(), json.loads(json.dumps(counted)))
        )
    return _HONEST_PART[0]


def part_case(rng: random.Random) -> bytes:
    """The honest part altered: its JSON's values replaced, removed or retyped, or its bytes."""
    data, _ = honest_part()
    if rng.random() < 0.7:
        doc = json.loads(data)
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            if roll < 0.6:  # most often inside a game: its path, log, record
                i = rng.randrange(len(doc["games"]))
                doc["games"][i] = _alter(doc["games"][i], rng)
            elif roll < 0.8:
                doc["tally"] = _alter(doc["tally"], rng)
            else:
                doc = _alter(doc, rng)
            if not isinstance(doc, dict) or not isinstance(doc.get("games"), list):
                break
            if not doc["games"] or not isinstance(doc.get("tally"), dict):
                break
        return json.dumps(doc).encode("utf-8", "surrogatepass")
    from tests.fuzz import mutate

    return mutate(data, rng)


def part_reader(case: bytes) -> object:
    """``pywall audit --merge``'s reading and checking of one part: a ``PywallError``, or
    exactly the honest part's counts (an alteration that changes nothing is no forgery)."""
    from pywall.audits.parts import part_from_json
    from pywall.run.parts import verified_part

    shard = verified_part(part_from_json(case, "fuzz.json"), 1)
    counted = json.loads(json.dumps(shard.tally().to_dict()))
    if counted != honest_part()[1]:
        raise Failure("an altered part was accepted with other counts")
    return shard
