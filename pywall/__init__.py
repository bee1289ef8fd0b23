"""pywall: verify online mahjong walls against their published seeds and hashes.

The public API (docs/python.md); everything else in the package is internal. The names
are loaded on first use (PEP 562), so ``import pywall`` stays light for the page's
workers and the command.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pywall.core.errors import LogFormatError, PywallError
from pywall.core.version import VERSION as __version__

if TYPE_CHECKING:
    from pywall.analysis.efficiency import EffectiveTiles
    from pywall.api.audit import AuditResult, audit
    from pywall.api.records import effective_tiles, parse_record, shanten, verify, walls
    from pywall.checks.tenhou import RoundWall
    from pywall.core.model import Game
    from pywall.results.report import FileReport

#: Each public name and the module that defines it.
_HOMES = {
    "AuditResult": "pywall.api.audit",
    "audit": "pywall.api.audit",
    "effective_tiles": "pywall.api.records",
    "parse_record": "pywall.api.records",
    "shanten": "pywall.api.records",
    "verify": "pywall.api.records",
    "walls": "pywall.api.records",
    "EffectiveTiles": "pywall.analysis.efficiency",
    "FileReport": "pywall.results.report",
    "Game": "pywall.core.model",
    "RoundWall": "pywall.checks.tenhou",
}

__all__ = [
    "AuditResult",
    "EffectiveTiles",
    "FileReport",
    "Game",
    "LogFormatError",
    "PywallError",
    "RoundWall",
    "__version__",
    "audit",
    "effective_tiles",
    "parse_record",
    "shanten",
    "verify",
    "walls",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pywall' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
