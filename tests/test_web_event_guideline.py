"""A page of an event speaks with the event's own guideline: the record screen,
its preview, the desk and a ruling's corrections name rules and penalties as the file the
event runs under names them, not as the shipped file does. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shinpan.files.guidelines import default_guideline, load_guideline
from shinpan.guideline import Rulebook
from shinpan.services import context
from test_component_meanings import component, edited
from web_support import World, build_world, database_url

RENAMED = "一回目の警告(大会独自)"  # the event's file calls warning1 this
SHIPPED_NAME = "単一警告"


def _renamed_warning(data: dict[str, Any]) -> None:
    component(data, "warning1")["name"]["ja"] = RENAMED


@pytest.fixture(params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    book = Rulebook(load_guideline(edited(tmp_path, _renamed_warning)))
    shipped = default_guideline()
    assert (book.guideline.id, book.guideline.version) == (shipped.id, shipped.version)
    # The event runs under this file: every path asks the same registry of guidelines.
    monkeypatch.setitem(context._BOOKS, (shipped.id, shipped.version), book)
    with database_url(request.param, tmp_path) as url:
        w = build_world(url, players=4, spare=0)
        try:
            yield w
        finally:
            w.close()


def test_the_preview_explains_with_the_events_guideline(world: World) -> None:
    hj = world.clients["head_judge"]
    found = hj.post(
        f"/api/events/{world.event}/rulings/preview",
        json={"player": world.players[0], "infraction": "ingame.slow-play", "command_id": world.cid()},
    )
    assert found.status_code == 200, found.text
    (ruling,) = found.json()["rulings"]
    assert ruling["penalties"] == ["warning1"]
    assert RENAMED in str(ruling["explanation"]) and SHIPPED_NAME not in str(ruling["explanation"])


def test_the_desk_and_the_corrections_name_the_penalty_as_the_event_does(world: World) -> None:
    number = world.record(world.players[0], "ingame.slow-play")
    hj = world.clients["head_judge"]
    desk = hj.get(f"/events/{world.event}/desk")
    assert desk.status_code == 200
    assert RENAMED in desk.text and SHIPPED_NAME not in desk.text
    forms = hj.get(f"/events/{world.event}/desk/corrections/{number}")
    assert forms.status_code == 200
    assert RENAMED in forms.text
