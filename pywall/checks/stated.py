"""Walls a record states (Mahjong Soul, Riichi City): the checks of the wall itself.

Theory of operation (docs/platforms.md; ../shared/FACTS-platforms.md): ``pywall.checks.verify``
compares every tile of such a record with the tile at its position in the wall
(``pywall.core.layout``) and each digest the round states with the wall (``pywall.checks.digests``);
this module checks the wall the record states: its tile set (with the starting hands,
where the wall lacks the deal) and the record's second copy of its undealt part (Riichi
City's ``paiShan``). It also owns what no check of a stated wall can prove (``LIMITS``):
the report carries those codes, so the CLI and the page say them in words instead of
deciding them again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pywall.core.findings import Finding, Severity
from pywall.core.layout import Layout
from pywall.core.model import Round
from pywall.core.tiles import KINDS, tile_text

#: What no check of a stated wall can prove, one line each (stable codes: add, never
#: rename). ``limits_of`` says which apply to a game; docs/platforms.md explains each.
LIMITS: dict[str, str] = {
    "unrevealed_tiles": "tiles never dealt, drawn or shown cannot be checked: two of them "
    "can be swapped and the digest computed again, and the record still verifies",
    "digest_from_record": "the digest and the wall both come from the platform after the game: "
    "they prove the wall was the one committed to only if the digest equals the one the "
    "client showed when the round began",
    "deal_outside_hash": "the digest covers only the undealt tiles: the starting hands are "
    "checked as a tile set, so tiles moved between two hands cannot be seen",
    "unsalted_digest": "an unsalted digest commits to the wall (there are far too many walls "
    "to find one from it), but a player who knows part of the wall could in principle test "
    "guesses of the rest against it",
    "no_commitment": "a round states no digest: its tiles are checked, but nothing shows its "
    "wall was fixed before the round",
    "platform_chooses_walls": "a commitment does not prove a fair shuffle: the platform may "
    "prepare many walls and choose which to deal; only statistics over many games "
    "(pywall audit) can look for that",
    "testing_environment": "the game was played in a room with test settings "
    "(testing_environment), where the host can preset tiles: its walls need not be "
    "shuffled, nor even a standard tile set, so a result here says whether the record "
    "agrees with the wall it reveals, nothing about the platform's shuffled games",
}


def composition_findings(rnd: Round, layout: Layout) -> list[Finding]:
    """The wall (with the hands, where it lacks the deal) must be the game's tile set:
    four of each kind (3-player: no 2m-8m); how many of the fives are red is the rule's."""
    tiles = list(rnd.wall or ())
    if not layout.holds_deal:
        tiles += [t for hand in rnd.hands for t in hand]
    counts = [0] * KINDS
    for t in tiles:
        counts[t // 4] += 1
    want = [0 if layout.players == 3 and 1 <= k <= 7 else 4 for k in range(KINDS)]
    wrong = {tile_text(k * 4 + 1): counts[k] for k in range(KINDS) if counts[k] != want[k]}
    out: list[Finding] = []
    if wrong:
        listed = ", ".join(f"{n} of {t}" for t, n in list(wrong.items())[:6])
        out.append(
            Finding(
                "wall_composition",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: the {'wall' if layout.holds_deal else 'hands and wall'} "
                f"are not a {layout.players}-player tile set ({listed})",
                {"counts": dict(wrong)},
            )
        )
    return out


def copy_findings(rnd: Round, layout: Layout) -> list[Finding]:
    """The record's second copy of the undealt wall must be the wall's undealt tiles."""
    if rnd.wall_copy is None or rnd.wall is None:
        return []
    positions = layout.undealt
    copy, wall = rnd.wall_copy, rnd.wall
    expected = [wall[p] for p in positions if p < len(wall)]
    if list(copy) == expected:
        return []
    if len(copy) != len(expected):
        where = f"has {len(copy)} tiles; the wall's undealt part has {len(expected)}"
        data: dict[str, Any] = {"copy_tiles": len(copy), "wall_tiles": len(expected)}
    else:
        diffs = [i for i, (a, b) in enumerate(zip(copy, expected)) if a != b]
        i = diffs[0]
        where = (
            f"differs from the wall in {len(diffs)} "
            f"{'place' if len(diffs) == 1 else 'places'}, first at its tile {i + 1}: "
            f"{tile_text(copy[i])} in the copy, {tile_text(expected[i])} in the wall "
            f"(position {positions[i]})"
        )
        data = {
            "differences": len(diffs),
            "index": i,
            "position": positions[i],
            "copy": copy[i],
            "wall": expected[i],
        }
    return [
        Finding(
            "wall_copy_mismatch",
            Severity.ERROR,
            rnd.index,
            f"{rnd.label}: the record's copy of the undealt wall {where}",
            data,
        )
    ]


def limits_of(rounds: Iterable[Round], testing_environment: bool = False) -> tuple[str, ...]:
    """The ``LIMITS`` codes that apply to a game's stated walls, in ``LIMITS`` order."""
    found = {"unrevealed_tiles", "platform_chooses_walls"}
    if testing_environment:
        found.add("testing_environment")
    for rnd in rounds:
        walls = [c for c in rnd.hashes if c.covers != "salt"]
        found.add("digest_from_record" if walls else "no_commitment")
        if rnd.wall_scheme == "undealt":
            found.add("deal_outside_hash")
        if any(not c.salted for c in walls):
            found.add("unsalted_digest")
    return tuple(code for code in LIMITS if code in found)
