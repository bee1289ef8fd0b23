"""Write pywall/analysis/shanten_table.py: the number-suit automaton of suit_profiles, built once.

A development tool, run by hand when the automaton changes (tests/unit/test_shanten.py
fails until it is run again); nothing at run time or in the build needs it:

    .venv/bin/python tools/make_shanten_table.py

The output is the same every time: ``pywall.analysis.suit_profiles.suit_table()``, compressed
with zlib at level 9 and written as base64 text (decoded in C: base85 is decoded in Python).
"""

from __future__ import annotations

import base64
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "pywall" / "analysis" / "shanten_table.py"
WIDTH = 88

HEADER = '''"""The number-suit automaton of pywall.analysis.suit_profiles, built once: GENERATED.

Do not edit: made by tools/make_shanten_table.py from
``pywall.analysis.suit_profiles.suit_table()`` (zlib, then base64);
``pywall.analysis.suit_profiles`` says what it holds, and a test holds it equal to that
function.
"""

PACKED = (
'''


def main() -> None:
    from pywall.analysis.suit_profiles import suit_table

    text = base64.b64encode(zlib.compress(suit_table(), 9)).decode("ascii")
    lines = [f'    b"{text[i : i + WIDTH]}"\n' for i in range(0, len(text), WIDTH)]
    OUT.write_text(HEADER + "".join(lines) + ")\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(text):,} characters of base64")


if __name__ == "__main__":
    main()
