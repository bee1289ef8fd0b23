"""The audit's draw and wall tests for a group: results, and their JSON form.

``pywall.analysis.draws`` owns the draw test and ``pywall.analysis.walls`` the wall-position test; this
module turns a group's sums into the reported tests (z and p of O - E against
sqrt V for each of ``draws.TESTS``; the wall tests of a platform) so that
``pywall.audits.verdicts`` stays the one audit of every group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pywall.analysis.draws import TESTS, Sums, detectable, detectable_one_in, sums_dict
from pywall.analysis.stats import two_sided_p
from pywall.analysis.walls import WallTally, WallTest, wall_tests

#: The three tests' sums of a group, in ``TESTS`` order.
DrawSums = tuple[Sums, Sums, Sums]
NO_DRAWS: DrawSums = (Sums(), Sums(), Sums())


@dataclass(frozen=True, slots=True)
class DrawTest:
    """One draw test over a group: O against E, z = (O - E) / sqrt V and its two-sided p
    (None when V = 0), computed once (a group's verdict reads them several times)."""

    name: str
    sums: Sums
    z: float | None = field(init=False)
    p: float | None = field(init=False)

    def __post_init__(self) -> None:
        s = self.sums
        z = (s.observed - s.expected) / math.sqrt(s.variance) if s.variance > 0 else None
        object.__setattr__(self, "z", z)
        object.__setattr__(self, "p", None if z is None else two_sided_p(z))

    def to_dict(self, each: float) -> dict[str, Any]:
        """``draws.sums_dict``: with the fair 95% range and the result's reading when the
        group's verdict gives each test the threshold ``each``, and what the test can see
        at that threshold: ``detectable`` (the shift in hits per 100 draws it catches 8
        times in 10) and ``detectable_one_in`` (the same as "1 in every N draws")."""
        shift = detectable(self.sums, each, self.name)
        return sums_dict(self.sums, each) | {
            "detectable": shift,
            "detectable_one_in": detectable_one_in(shift),
        }


@dataclass(frozen=True, slots=True)
class DrawAudit:
    """A group's three draw tests (effective, tenpai, dora)."""

    tests: tuple[DrawTest, ...]

    @property
    def draws(self) -> int:
        return self.tests[0].sums.n

    @property
    def p_values(self) -> tuple[float, ...]:
        return tuple(t.p for t in self.tests if t.p is not None)

    def to_dict(self, each: float) -> dict[str, Any]:
        return {t.name: t.to_dict(each) for t in self.tests}


def draw_audit(sums: DrawSums) -> DrawAudit | None:
    """The draw tests of a group's sums; None when the group has no tested draw."""
    if not sums[0].n:
        return None
    return DrawAudit(tuple(DrawTest(name, s) for name, s in zip(TESTS, sums)))


@dataclass(frozen=True, slots=True)
class WallAudit:
    """A platform and player count's wall-position tests, over its games with whole walls."""

    games: int
    walls: int
    tests: tuple[WallTest, ...]

    @property
    def p_values(self) -> tuple[float, ...]:
        return tuple(t.p for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "walls": self.walls,
            "tests": [t.to_dict() for t in self.tests],
        }


def wall_audit(tally: WallTally | None) -> WallAudit:
    if tally is None:
        return WallAudit(0, 0, ())
    return WallAudit(tally.games, tally.walls, wall_tests(tally))


def draw_verdict(
    draws: DrawAudit | None, walls: WallAudit | None, alpha: float
) -> dict[str, Any] | None:
    """The draw and wall tests' own verdict, the threshold split over them as the group's
    verdict splits it over all its tests: ``{tests, smallest_p, flagged}``; None without tests."""
    ps = (draws.p_values if draws else ()) + (walls.p_values if walls else ())
    if not ps:
        return None
    return {"tests": len(ps), "smallest_p": min(ps), "flagged": min(ps) < alpha / len(ps)}
