"""Mahjong Soul wall hashes: the real sanma vector, tampering, malformed walls."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks.majsoul import (
    check_round,
    digest_from_text,
    paishan_from_text,
    verify_rounds,
)
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.findings import CODES, Severity
from pywall.core.model import RoundHashes

VECTOR = json.loads(
    (Path(__file__).parent.parent / "data/vectors/majsoul/lipenghua_sanma_vector.json").read_text(
        "utf-8"
    )
)
SANMA = VECTOR["paishan"]
SALT = VECTOR["salt"]


def yonma_wall(seed: int = 1) -> str:
    """A valid 4-player paishan: every kind 4 times, one red five per suit."""
    tiles = [f"{n}{s}" for s in "mps" for n in range(1, 10) for _ in range(4)]
    tiles += [f"{n}z" for n in range(1, 8) for _ in range(4)]
    for suit in "mps":
        tiles[tiles.index(f"5{suit}")] = f"0{suit}"
    random.Random(seed).shuffle(tiles)
    return "".join(tiles)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def codes(stated: RoundHashes) -> list[str]:
    return [f.code for f in check_round(stated).findings]


def salted(paishan: str, salt: str = "s4lt") -> RoundHashes:
    return RoundHashes(paishan, salt, sha256(paishan + salt), sha256(salt))


# --- the real vector ------------------------------------------------------------------


def test_vector_sha256() -> None:
    assert sha256(SANMA + SALT) == VECTOR["sha256"]


def test_vector_round_verifies() -> None:
    stated = RoundHashes(SANMA, SALT, VECTOR["sha256"], VECTOR["saltSha256"])
    result = check_round(stated)
    assert result.ok
    assert [f.code for f in result.findings] == ["sha256_match", "salt_hash_match"]
    assert result.paishan.players == 3
    assert len(result.paishan.tiles) == 108
    assert result.paishan.red_fives() == {"m": 0, "p": 1, "s": 1}


def test_vector_hash_is_case_insensitive() -> None:
    stated = RoundHashes(SANMA, SALT, VECTOR["sha256"].upper(), " " + VECTOR["saltSha256"] + "\n")
    assert check_round(stated).ok


# --- tampering is caught -------------------------------------------------------------------


def _swap(text: str, i: int, j: int) -> str:
    tiles = [text[k : k + 2] for k in range(0, len(text), 2)]
    tiles[i], tiles[j] = tiles[j], tiles[i]
    return "".join(tiles)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"paishan": _swap(SANMA, 0, 1)}, ["hash_mismatch", "salt_hash_match"]),
        ({"paishan": _swap(SANMA, 106, 107)}, ["hash_mismatch", "salt_hash_match"]),
        ({"salt": SALT[:-1] + "X"}, ["hash_mismatch", "salt_hash_mismatch"]),
        ({"sha256": "0" * 64}, ["hash_mismatch", "salt_hash_match"]),
        ({"salt_sha256": VECTOR["sha256"]}, ["sha256_match", "salt_hash_mismatch"]),
    ],
    ids=["first-two-tiles-swapped", "last-two-swapped", "salt-changed", "hash-changed",
         "salt-hash-changed"],
)  # fmt: skip
def test_tampered_vector_is_rejected(change: dict[str, str], expected: list[str]) -> None:
    fields = {"paishan": SANMA, "salt": SALT, "sha256": VECTOR["sha256"],
              "salt_sha256": VECTOR["saltSha256"]} | change  # fmt: skip
    result = check_round(RoundHashes(**fields))
    assert [f.code for f in result.findings] == expected
    assert not result.ok


def test_mismatch_message_shows_both_values() -> None:
    finding = check_round(RoundHashes(SANMA, SALT, "ab" * 32)).findings[0]
    assert finding.severity is Severity.ERROR
    assert "ab" * 32 in finding.message and VECTOR["sha256"] in finding.message
    assert finding.data == {"name": "sha256", "algorithm": "sha256", "covers": "wall",
                            "stated": "ab" * 32, "computed": VECTOR["sha256"]}  # fmt: skip


def test_md5_rounds() -> None:
    wall = yonma_wall()
    good = hashlib.md5(wall.encode()).hexdigest()
    assert codes(RoundHashes(wall, md5=good)) == ["md5_match"]
    assert codes(RoundHashes(wall, md5=good.upper())) == ["md5_match"]
    assert codes(RoundHashes(_swap(wall, 5, 6), md5=good)) == ["md5_mismatch"]


def test_no_hash_and_missing_salt() -> None:
    wall = yonma_wall()
    assert codes(RoundHashes(wall)) == ["no_hash", "no_digest_checked"]
    assert not check_round(RoundHashes(wall)).ok  # the tool checked nothing: not a match
    # a sha256 is stated (so not no_hash), but without its salt nothing could be checked
    assert codes(RoundHashes(wall, sha256=sha256(wall))) == ["salt_missing", "no_digest_checked"]
    md5 = hashlib.md5(wall.encode()).hexdigest()
    result = check_round(RoundHashes(wall, sha256=sha256(wall), md5=md5))
    assert [f.code for f in result.findings] == ["md5_match", "salt_missing"]
    assert result.ok  # the md5 still proves the wall


def test_red_five_warning() -> None:
    wall = yonma_wall().replace("5p", "0p", 1)
    result = check_round(salted(wall))
    assert [f.code for f in result.findings][-1] == "red_fives_unusual"
    assert result.ok


def test_verify_rounds_whole_game() -> None:
    rounds = [salted(yonma_wall(i), f"salt{i}") for i in range(5)]
    rounds[3] = RoundHashes(rounds[3].paishan, "other", rounds[3].sha256, rounds[3].salt_sha256,
                            chang=0, ju=3, ben=1)  # fmt: skip
    report = verify_rounds(rounds)
    assert [r.ok for r in report.rounds] == [True, True, True, False, True]
    assert not report.ok
    bad = [f for f in report.findings if f.severity is Severity.ERROR]
    assert {f.round for f in bad} == {3}
    assert bad[0].message.startswith("round 4 (East 4, 1 honba): ")


def test_empty_game_is_not_ok() -> None:
    assert not verify_rounds([]).ok


def test_report_json() -> None:
    report = verify_rounds([RoundHashes(SANMA, SALT, VECTOR["sha256"], VECTOR["saltSha256"],
                                        chang=1, ju=0, ben=2)])  # fmt: skip
    data = json.loads(json.dumps(report.to_dict()))
    assert data["schema"] == "pywall.majsoul/1" and data["ok"] is True
    (rnd,) = data["rounds"]
    assert rnd["label"] == "South 1, 2 honba" and rnd["players"] == 3
    assert rnd["digests"]["sha256"]["match"] is True
    assert {f["code"] for f in data["findings"]} == {"sha256_match", "salt_hash_match"}


def test_every_emitted_code_is_documented() -> None:
    for stated in (salted(yonma_wall()), RoundHashes(yonma_wall()),
                   RoundHashes(SANMA, "x", "0" * 64, "1" * 64, "2" * 32)):  # fmt: skip
        assert all(f.code in CODES for f in check_round(stated).findings)


# --- malformed walls and digests --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SANMA[:-1], "215 characters"),
        (SANMA[:-2], "107 tiles"),
        (SANMA + "1z", "109 tiles"),
        ("8z" + SANMA[2:], "tile 1 (characters 1-2) is '8z'"),
        (SANMA[:10] + "0z" + SANMA[12:], "tile 6 (characters 11-12) is '0z'"),
        (SANMA[:20] + "5x" + SANMA[22:], "tile 11 (characters 21-22) is '5x'"),
        ("1z" + SANMA[2:], "is a 5th 1z"),
        (SANMA[:2] + "5m" + SANMA[4:], "tile 2 is 5m, which a 3-player wall"),
        ("0m" + SANMA[2:], "tile 1 is 0m, which a 3-player wall"),
        (yonma_wall().replace("3s", "0s", 1), "is a 5th 5s"),
        ("", "0 tiles"),
        ("１ｍ" * 54, "'１ｍ'"),
    ],
    ids=["odd-length", "107", "109", "bad-honour", "red-honour", "bad-suit", "5th-copy",
         "sanma-5m", "sanma-red-5m", "5th-five-with-red", "empty", "fullwidth"],
)  # fmt: skip
def test_malformed_paishan(text: str, message: str) -> None:
    with pytest.raises(ValueInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        paishan_from_text(text)


def test_malformed_paishan_in_a_round_names_the_round() -> None:
    with pytest.raises(ValueInputError, match=r"^round 2 \(West 1, 0 honba\): paishan has 1 "):
        check_round(RoundHashes("1m", chang=2, ju=0, ben=0), index=1)


def test_paishan_strips_outer_whitespace_only() -> None:
    assert paishan_from_text(" " + SANMA + "\n").text == SANMA
    with pytest.raises(ValueInputError):
        paishan_from_text(SANMA[:10] + " " + SANMA[10:])


@pytest.mark.parametrize(
    ("text", "algorithm"),
    [("0" * 63, "sha256"), ("g" * 64, "sha256"), ("0" * 64, "md5"), ("", "md5")],
    ids=["short", "not-hex", "sha-as-md5", "empty"],
)
def test_malformed_digest(text: str, algorithm: str) -> None:
    with pytest.raises(ValueInputError, match=f"not an {algorithm.upper()} digest"):
        digest_from_text(text, algorithm)


def test_malformed_digest_in_round() -> None:
    with pytest.raises(ValueInputError, match=r"round 1: sha256 'xyz' is not"):
        check_round(RoundHashes(SANMA, SALT, "xyz"))


# --- properties ------------------------------------------------------------------------

codes_alphabet = st.sampled_from([f"{n}{s}" for s in "mps" for n in range(10)] +
                                 [f"{n}z" for n in range(8)] + ["5x", "z1", "?"])  # fmt: skip


@given(st.one_of(st.text(max_size=300), st.lists(codes_alphabet, max_size=140).map("".join)))
@settings(max_examples=300)
def test_paishan_parser_raises_only_pywall_errors(text: str) -> None:
    try:
        wall = paishan_from_text(text)
    except PywallError:
        return
    assert len(wall.tiles) in (108, 136)


@given(st.integers(0, 2**32), st.text(max_size=40))
@settings(max_examples=50)
def test_any_shuffled_wall_verifies_with_its_own_hash(seed: int, salt: str) -> None:
    wall = yonma_wall(seed)
    assert check_round(salted(wall, salt)).ok
