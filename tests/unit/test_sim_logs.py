"""The benchmarks' distinct games (benchmarks/sim_logs.py) are real Tenhou logs to pywall:
every tile checks against the walls of their own seeds, and the draw test follows every
round (their pon and kan codes read back as the tiles the bots took)."""

from __future__ import annotations

from benchmarks.sim_logs import game
from pywall.analysis.draws import game_draws
from pywall.checks.verify import verify_game
from pywall.core.model import Call
from pywall.formats import parse_record


def test_simulated_logs_verify_and_every_round_is_followed() -> None:
    games = [parse_record(game(i, seed=7).encode()) for i in range(4)]
    assert len({g.seed for g in games}) == 4  # distinct seeds
    for g in games:
        assert verify_game(g).status == "verified"
        assert game_draws(g).skipped_rounds == 0
    calls = [ev for g in games for r in g.rounds for ev in r.events if type(ev) is Call]
    assert calls  # the codes were exercised
