"""Printing helpers shared by the sub-commands."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fail(message: str, code: int = 2) -> int:
    """A one-line message for a person on stderr; the exit code to return."""
    print(f"pywall: {message}", file=sys.stderr)
    return code


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 'es' if word.endswith('ch') else 's'}"
