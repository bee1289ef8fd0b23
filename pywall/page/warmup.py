"""A made-up game for warming up the page's interpreter.

A browser compiles WebAssembly lazily and optimises a function only once it has
run a while: the first logs after the page loads were checked about 1.7x slower
than the next ones. The worker checks this game once, right after it says it is
ready, so a person's first log is checked at full speed. The game is a real
mjlog dealt and drawn from the walls of a fixed seed, with every position taken
from the layout, so it verifies like any real game (a test holds it to that).
"""

from __future__ import annotations

from pywall.checks import tenhou
from pywall.core.layout import WallScheme, layout_for
from pywall.results.check import check_log

_WARM_SEED = "".join(chr(65 + i % 26) for i in range(3328))  # base64 of 2496 bytes


def made_up_log(rounds: int = 4) -> str:
    """A 4-player mjlog dealt from the walls of a fixed seed and drawn to the end of
    each live wall, each tile discarded as drawn."""
    layout = layout_for(WallScheme.TENHOU, 4)
    hands = layout.deal_by_seat(0)
    parts = [
        (
            f'<mjloggm ver="2.3"><SHUFFLE seed="{tenhou.PREFIX}{_WARM_SEED}" ref=""/>'
            '<GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/>'
        )
    ]
    for r, wall in enumerate(tenhou.walls(_WARM_SEED, rounds)):
        t = wall.tiles
        dice = wall.dice or (1, 1)
        dealt = " ".join(f'hai{s}="{",".join(str(t[p]) for p in hands[s])}"' for s in range(4))
        parts.append(
            f'<INIT seed="{r},0,0,{dice[0] - 1},{dice[1] - 1},{t[layout.dora[0]]}" '
            f'ten="250,250,250,250" oya="0" {dealt}/>'
        )
        parts += [
            f"<{'TUVW'[k % 4]}{t[p]}/><{'DEFG'[k % 4]}{t[p]}/>" for k, p in enumerate(layout.live)
        ]
        parts.append('<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>')
    return "".join(parts) + "</mjloggm>"


def warm_up_report(times: int = 3) -> str:
    """Check the made-up game ``times`` times, as the page checks a log; its status."""
    data = made_up_log().encode()
    status = "error"
    for _ in range(times):
        status = check_log("warm-up.xml", data, detail=True, starting=True).status
    return status
