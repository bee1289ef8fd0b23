"""The model's events: frozen values, equal only within their own class."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pywall.core.model import Discard, Draw


@pytest.mark.parametrize("cls", [Draw, Discard], ids=["draw", "discard"])
def test_move_events_are_frozen_values(cls: type[Draw | Discard]) -> None:
    ev = cls(2, 35)
    assert (ev.seat, ev.tile) == (2, 35)
    assert ev == cls(seat=2, tile=35) and hash(ev) == hash(cls(2, 35))
    assert ev != cls(2, 36)
    assert repr(ev) == f"{cls.__name__}(seat=2, tile=35)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.tile = 1  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(ev)) == ev


def test_a_draw_is_not_a_discard() -> None:
    draw: object = Draw(0, 5)
    assert draw != Discard(0, 5)
