"""``pywall.audit``: the audit of many games, typed (``AuditResult``).

The games are read as ``pywall audit`` reads them (``pywall.inputs``: files, folders, zips,
phoenix-logs databases), checked one by one (``jobs`` worker processes, results in input
order: ``pywall.run``, the layer every run of many games stands on) and tallied in that order (``AuditTally``), so the same inputs
give the same numbers as the command, to the last digit. ``AuditResult.to_dict()`` is the
document ``pywall audit --json`` prints.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pywall.api.arguments import jobs_from, sources_from
from pywall.core.errors import ValueInputError

if TYPE_CHECKING:  # imported where used: ``import pywall`` stays light (the page imports it)
    from pywall.audits.tally import AuditTally, Exclusion
    from pywall.audits.verdicts import AuditResult as Tests
    from pywall.audits.verdicts import GroupAudit

AuditSource = bytes | bytearray | str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class AuditResult:
    """An audit: every group's tests (everyone, each platform and player count, each seat,
    each named player), the games counted and those left out with why.

    ``to_dict()`` is ``pywall audit --json``'s document; ``rows()`` one plain dict a group
    (for ``pandas.DataFrame``); ``to_html()`` the audit's report as a page.
    """

    overall: GroupAudit
    platforms: tuple[GroupAudit, ...]
    seats: tuple[GroupAudit, ...]
    players: tuple[GroupAudit, ...]
    games: int
    hands: int
    draws: int
    excluded: tuple[Exclusion, ...]
    tally: AuditTally = field(repr=False, compare=False)

    @classmethod
    def from_tally(cls, tally: AuditTally) -> AuditResult:
        """The audit of what ``tally`` counted (``ValueInputError`` when no game counted)."""
        from pywall.audits.verdicts import audit_result

        if not tally.hands:
            raise ValueInputError(
                f"no verified game to audit ({len(tally.excluded):,} excluded; "
                "the first: " + (tally.excluded[0].reason if tally.excluded else "none") + ")"
            )
        tests = audit_result(tally)
        return cls(
            tests.overall,
            tests.platforms,
            tests.seats,
            tests.players,
            tally.games,
            tally.hands,
            tally.draws,
            tuple(tally.excluded),
            tally,
        )

    @property
    def tests(self) -> Tests:
        """The groups' tests as ``pywall.audits.verdicts`` computes them."""
        from pywall.audits.verdicts import AuditResult as Tests

        return Tests(self.overall, self.players, self.platforms, seats=self.seats)

    def to_dict(self) -> dict[str, Any]:
        """What ``pywall audit --json`` prints for the same inputs."""
        from pywall.audits.verdicts import cli_dict

        return cli_dict(self.tests, self.tally)

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict a group (overall, platforms, seats, players), for
        ``pandas.DataFrame(result.rows())``: its hands, the shanten and dora-dealt tests,
        each draw test's draws, z and p (``draws_effective_z``, ...), the smallest p and
        whether a test rejects a fair shuffle (``flagged``: Bonferroni over its tests)."""
        kinds = (
            [("overall", self.overall)]
            + [("platform", g) for g in self.platforms]
            + [("seat", g) for g in self.seats]
            + [("player", g) for g in self.players]
        )
        return [group_row(kind, g) for kind, g in kinds]

    def to_html(self, lang: str = "en", player: str | None = None) -> str:
        """The audit's report as one self-contained HTML page (``lang``: en, ja or zh), the
        one ``pywall audit --html`` writes; ``player``: the named player shown first."""
        from pywall.audits.html import audit_html, games_of

        return audit_html(self.tests, lang, games_of(self.tally), player)


def group_row(kind: str, g: GroupAudit) -> dict[str, Any]:
    from pywall.audits.verdicts import ALPHA

    row: dict[str, Any] = {
        "group": kind,
        "label": g.label,
        "hands": g.hands,
        "mean_shanten": sum(p.mean * p.hands for p in g.parts) / g.hands if g.hands else None,
        "shanten_z": g.shanten_z.z,
        "shanten_z_p": g.shanten_z.p_value,
        "shanten_chi2": g.chi2,
        "shanten_dof": g.dof,
        "shanten_p": g.p_value,
        "dora_z": g.dora.z if g.dora else None,
        "dora_p": g.dora.p_value if g.dora else None,
    }
    for test in g.draws.tests if g.draws else ():
        key = f"draws_{test.name}"  # draws_effective, draws_tenpai, draws_dora
        row |= {f"{key}_n": test.sums.n, f"{key}_z": test.z, f"{key}_p": test.p}
    return row | {
        "tests": len(g.p_values),
        "smallest_p": min(g.p_values),
        "flagged": g.rejects(ALPHA),
    }


def tally_of(sources: Iterable[AuditSource], jobs: int = 1) -> AuditTally:
    """What the audit counts of ``sources``, checked in ``jobs`` processes, in input order
    (a list of them: the tally keeps a few hundred bytes a game, and reads a game again
    when another copy of it comes, ``AuditTally.reread``)."""
    from pywall.audits.tally import AuditTally
    from pywall.run.items import source_entries
    from pywall.run.pool import records, rereader

    again = sources if isinstance(sources, Sequence) else None  # a list can be read twice
    tally = AuditTally(
        reread=None if again is None else rereader(lambda: source_entries(again), jobs)
    )
    with closing(records(source_entries(sources), jobs)) as found:
        for record in found:
            tally.add(record)
    return tally


def audit(sources: Sequence[AuditSource] | AuditSource, jobs: int = 1) -> AuditResult:
    """Audit the games in ``sources``: paths (files, folders, zips, phoenix-logs
    databases) or records' bytes, one source or a list. Only verified games count, each
    once. ``jobs`` worker processes check the games (the numbers do not depend on it): 1
    to 256, as ``--jobs``. Raises ``ValueInputError`` (a ``PywallError``) when no game can
    be counted or ``jobs`` is out of bounds; ``TypeError`` for a source of another type
    (a list of paths or bytes is read in its order: a set or a dict is refused) or
    ``jobs`` that is no ``int`` (a ``bool`` is none)."""
    workers = jobs_from(jobs)
    return AuditResult.from_tally(tally_of(sources_from(sources), workers))
