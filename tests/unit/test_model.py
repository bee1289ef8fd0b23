"""The model's events: frozen values, equal only within their own class."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pywall.model import Discard, Draw


@pytest.mark.parametrize("cls", [Draw, Discard], ids=["draw", "discard"])
def test_move_events_are_frozen_values(cls: type[Draw | Discard]) -> None:
    ev = cls(2, 35, 7)
    assert (ev.seat, ev.tile, ev.n) == (2, 35, 7)
    assert ev == cls(seat=2, tile=35, n=7) and hash(ev) == hash(cls(2, 35, 7))
    assert ev != cls(2, 35, 8)
    assert repr(ev) == f"{cls.__name__}(seat=2, tile=35, n=7)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.tile = 1  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(ev)) == ev
    assert [f.name for f in dataclasses.fields(ev)] == ["seat", "tile", "n"]


def test_a_draw_is_not_a_discard() -> None:
    draw: object = Draw(0, 5, 1)
    assert draw != Discard(0, 5, 1)


@pytest.mark.parametrize("args", [(1, 2), (1, 2, 3, 4)], ids=["too-few", "too-many"])
def test_move_events_take_exactly_three_fields(args: tuple[int, ...]) -> None:
    with pytest.raises(TypeError):
        Draw(*args)
