"""A JSON value, typed: what a finding's ``data`` and an audit exclusion's
``reason_data`` hold (they go into reports as they are, and the page words them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

#: Any value ``json.dumps`` writes and ``json.loads`` gives back as itself.
JsonValue: TypeAlias = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
#: A JSON object, read only.
JsonObject: TypeAlias = Mapping[str, JsonValue]
