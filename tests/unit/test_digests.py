"""A round's stated wall against its published digests: one check, one severity per code,
whether it runs as part of a game record's check (``pywall verify``, the page's report)
or alone (``pywall majsoul``, the page's Mahjong Soul hash tool)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from pywall.checks import majsoul
from pywall.checks.digests import SEVERITY, check_digests
from pywall.checks.verify import verify_game
from pywall.core.findings import CODES, DIGEST_CODES, Finding, Severity
from pywall.core.model import HashClaim
from pywall.formats import parse_record
from pywall.formats.majsoul import parse_hashes
from tests.helpers import DATA, ROOT
from tests.unit.test_majsoul_record import MD5_RECORD, SHA_ROUND, Record, load, sha_record

# --- the same round through both paths -------------------------------------------------


def _drop(*keys: str) -> Callable[[Record], None]:
    def change(new_round: Record) -> None:
        for key in keys:
            del new_round[key]

    return change


def _set(key: str, value: str) -> Callable[[Record], None]:
    def change(new_round: Record) -> None:
        new_round[key] = value

    return change


#: A real SHA-256-era round (with the digests the game states), changed as a record can be.
SHA_CASES: dict[str, Callable[[Record], None] | None] = {
    "salted-sha256": None,
    "no-salt": _drop("salt"),
    "no-salt-no-saltSha256": _drop("salt", "saltSha256"),
    "only-saltSha256": _drop("salt", "sha256"),
    "no-digest": _drop("salt", "sha256", "saltSha256"),
    "sha256-altered": _set("sha256", "0" * 64),
    "salt-altered": _set("salt", "another salt"),
    "saltSha256-altered": _set("saltSha256", "1" * 64),
}


def sha_case(name: str) -> bytes:
    record = sha_record()
    change = SHA_CASES[name]
    if change is not None:
        change(record["events"][0]["data"])
    return json.dumps(record).encode()


def md5_case(name: str) -> bytes:
    record = load(MD5_RECORD)
    if name == "md5-altered":
        first = next(a for a in record["data"]["data"]["actions"] if "result" in a)
        first["result"]["data"]["md5"] = "0" * 32
    return json.dumps(record).encode()


def extract_case(name: str) -> bytes:
    return SHA_ROUND.read_bytes()


CASES: dict[str, Callable[[str], bytes]] = {
    **{n: sha_case for n in SHA_CASES},
    "md5": md5_case,
    "md5-altered": md5_case,
    "riichienv-extract": extract_case,
}


def digest_findings(findings: tuple[Finding, ...]) -> list[tuple[int | None, str, str]]:
    """(round, code, severity) of each finding about a digest, in order."""
    return [(f.round, f.code, f.severity.value) for f in findings if f.code in DIGEST_CODES]


def record_path(data: bytes) -> list[tuple[int | None, str, str]]:
    """What the check of the game record says of its digests."""
    return digest_findings(verify_game(parse_record(data)).findings)


def tool_path(data: bytes) -> list[tuple[int | None, str, str]]:
    """What the hash-only check (``pywall majsoul``, the page's tool) says of them."""
    rounds = parse_hashes(data).rounds
    return digest_findings(majsoul.verify_rounds(rounds).findings)


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_both_paths_give_a_round_the_same_digest_codes_and_severities(name: str) -> None:
    """A digest finding means one thing: the hash tool and the check of the game say the
    same codes, each as severe, of the same round (the tool may add what is its own)."""
    data = CASES[name](name)
    mine = [f for f in tool_path(data) if f[1] != "no_digest_checked"]
    assert sorted(mine) == sorted(record_path(data))


def test_each_digest_code_has_one_severity_across_every_case() -> None:
    seen: dict[str, set[str]] = {}
    for name, case in CASES.items():
        data = case(name)
        for _, code, severity in record_path(data) + tool_path(data):
            seen.setdefault(code, set()).add(severity)
    assert {code: len(s) for code, s in seen.items()} == {code: 1 for code in seen}
    assert seen["no_hash"] == {"warning"} and seen["salt_missing"] == {"warning"}


def test_a_round_without_any_digest_is_a_warning_for_the_record_and_unchecked_for_the_tool() -> (
    None
):
    """RiichiEnv's extract states no digest: its tiles verify (the game is verified, with the
    warning ``no_hash``); the hash tool, which checks nothing else, cannot call it a match."""
    data = SHA_ROUND.read_bytes()
    game = verify_game(parse_record(data))
    assert game.status == "verified"
    assert [(f.code, f.severity.value) for f in game.findings] == [("no_hash", "warning")]
    report = majsoul.verify_rounds(parse_hashes(data).rounds)
    assert not report.ok
    assert [(f.code, f.severity.value) for f in report.findings] == [
        ("no_hash", "warning"),
        ("no_digest_checked", "error"),
    ]


def test_a_sha256_without_its_salt_is_not_no_hash_in_either_path() -> None:
    """``no_hash`` means the round states no digest of its wall; a ``sha256`` without its
    ``salt`` is stated but cannot be checked: ``salt_missing``, in both paths."""
    data = sha_case("no-salt")
    assert [c for _, c, _ in record_path(data)] == ["salt_missing"]
    assert [c for _, c, _ in tool_path(data)] == ["salt_missing", "no_digest_checked"]


# --- the one check, for every platform and era ------------------------------------------

RC_FOUR = DATA / "riichicity" / "4ma_gin_han_sample.json"


def test_every_digest_code_has_one_severity_and_is_documented() -> None:
    assert set(SEVERITY) == set(DIGEST_CODES)
    assert set(SEVERITY) <= set(CODES)


def test_riichi_city_unsalted_sha256_of_the_whole_wall() -> None:
    """Riichi City states SHA-256(handCardEncode), once for the round and again in each
    player's start event: every copy is checked, and each one altered is its own error."""
    record = json.loads(RC_FOUR.read_text(encoding="utf-8"))
    record["data"]["handRecord"][0]["handCardsSHA256"] = "0" * 64
    result = verify_game(parse_record(json.dumps(record).encode()))
    digests = result.rounds[0].digests
    assert digests is not None and not digests.ok and digests.checked
    (bad,) = [f for f in digests.findings if f.severity is Severity.ERROR]
    assert bad.code == "hash_mismatch" and bad.data["name"] == "handCardsSHA256"
    assert bad.message.startswith(f"{result.rounds[0].label}: SHA-256(handCardEncode) is ")
    assert [r.match for r in digests.results] == [False, True, True, True, True]
    assert {(r.covers, r.salted, r.tiles) for r in digests.results} == {("wall", False, 136)}


def test_mahjong_soul_md5_covers_the_undealt_wall_only() -> None:
    data = md5_case("md5")
    rounds = verify_game(parse_record(data)).rounds
    for rnd in rounds:
        assert rnd.digests is not None
        (md5,) = rnd.digests.results
        assert (md5.covers, md5.salted, md5.tiles, md5.match) == ("undealt", False, 83, True)
        assert [f.code for f in rnd.digests.findings] == ["md5_match", "deal_not_committed"]


def test_the_tool_and_the_record_word_a_digest_alike() -> None:
    """One message and one data per digest, whichever path: the formula, then the computed
    and the stated values (each path names the round its own way)."""
    data = sha_case("sha256-altered")
    game = verify_game(parse_record(data)).findings
    tool = majsoul.verify_rounds(parse_hashes(data).rounds).findings
    (mine,), (theirs,) = ([f for f in fs if f.code == "hash_mismatch"] for fs in (tool, game))
    assert mine.message.startswith("round 1 (East 1, 0 honba): SHA-256(paishan + salt) is ")
    assert theirs.message.startswith("East 1, 0 honba: SHA-256(paishan + salt) is ")
    assert mine.message.split(": ", 1)[1] == theirs.message.split(": ", 1)[1]
    assert "0" * 64 in mine.message and mine.data == theirs.data


@pytest.mark.parametrize(
    ("alone", "codes"),
    [(False, ["no_hash"]), (True, ["no_hash", "no_digest_checked"])],
    ids=["with-the-tiles", "alone"],
)
def test_a_round_with_no_claim(alone: bool, codes: list[str]) -> None:
    digests = check_digests((), index=2, where="South 1, 0 honba", tiles=136, alone=alone)
    assert [f.code for f in digests.findings] == codes
    assert [f.severity for f in digests.findings] == [SEVERITY[c] for c in codes]
    assert all(
        f.round == 2 and f.message.startswith("South 1, 0 honba: ") for f in digests.findings
    )
    assert digests.ok is not alone and not digests.checked


def test_a_salt_the_record_cannot_encode_is_hashed_not_a_crash() -> None:
    """JSON can carry a lone surrogate; the tool hashes it as the bytes it stands for."""
    claim = HashClaim("saltSha256", "sha256", "\ud800", "0" * 64, "salt", over="salt")
    (result,) = check_digests((claim,), index=0, where="round 1", tiles=136).results
    assert result.match is False and result.computed is not None


def test_the_docs_give_each_digest_code_its_one_severity() -> None:
    """docs/platforms.md's table of digest codes says each code's severity as the code has it."""
    text = (ROOT / "docs" / "platforms.md").read_text(encoding="utf-8")
    said: dict[str, str] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1] in ("info", "warning", "error"):
            said |= {code: cells[1] for code in re.findall(r"`(\w+)`", cells[0])}
    assert said == {code: severity.value for code, severity in SEVERITY.items()}
