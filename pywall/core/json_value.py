"""A JSON value, typed: what a finding's ``data`` and an audit exclusion's
``reason_data`` hold (they go into reports as they are, and the page words them); and
JSON text as the CLI prints it and the page saves it (``json_text``), so that the two
write the same bytes for the same document."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TypeAlias

#: Any value ``json.dumps`` writes and ``json.loads`` gives back as itself.
JsonValue: TypeAlias = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
#: A JSON object, read only.
JsonObject: TypeAlias = Mapping[str, JsonValue]

#: What JSON text must still escape: ``json`` escapes C0 controls, quotes and backslashes.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group(0)):04x}"


def json_text(obj: Any, **options: Any) -> str:
    """``json.dumps`` (non-ASCII kept) with C1 controls, bidi characters, line separators
    and lone surrogates as ``\\u`` escapes: they occur only inside strings, where the
    escape reads back as the same character (a terminal or an editor showing the text
    cannot be driven by them, and a lone surrogate has no UTF-8 form to write)."""
    return _JSON_UNSAFE.sub(_json_escape, json.dumps(obj, ensure_ascii=False, **options))
