"""Handles everywhere players are named (issue 31): a late entrant registers with a handle; on
handle-only pages a player without one is 「参加番号 …」, never a bare number that reads like a
year; the winner's report opened without the slip's QR asks for the table first, and then
names the players, never seats (「A席の勝ち」)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shinpan.errors import InvalidInput
from shinpan.services import publish, rounds
from shinpan.web.public_lane import AddressLimit
from web_support import World, csrf_in, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


def test_a_late_entrant_gets_a_handle_and_nobody_is_a_bare_number(world: World) -> None:
    w = world
    hj = w.clients["head_judge"]
    page = hj.get(f"/events/{w.event}/players").text
    added = hj.http.post(
        f"/events/{w.event}/players/add",
        data={"csrf_token": csrf_in(page), "command_id": w.cid("late"), "number": "2025", "name": "遅刻 太郎",
              "reading": "ちこく たろう", "handle": "taro_late"},
    )  # fmt: skip
    assert added.status_code in (200, 303), added.text[:300]
    w.app.state.public_limit = AddressLimit(10_000)
    token = publish.publish(w.db, w.event, names="handles").token
    roster = w.clients["signed_out"].get(f"/p/{token}/pairings").text
    shown = re.findall(r'<span class="pname">([^<]*)</span>', roster)
    assert shown and all(not s.strip().isdigit() for s in shown), shown  # never a bare number
    assert any(s.startswith("参加番号 ") for s in shown)
    found = w.clients["signed_out"].get(f"/p/{token}?q=taro_late").text
    assert "taro_late" in found


def test_the_winners_report_names_players_never_seats(world: World) -> None:
    w = world
    if rounds.round_clock(w.db, w.event, 1).state == "paired":
        rounds.start_round(w.db, w.event)
    w.app.state.public_limit = AddressLimit(10_000)
    token = publish.publish(w.db, w.event, names="names", winner_report=True).token
    bare = w.clients["signed_out"].get(f"/p/{token}/report").text
    assert 'id="report-table"' in bare and "席" not in bare and 'name="score"' not in bare
    chosen = w.clients["signed_out"].get(f"/p/{token}/report?table=1").text
    assert 'name="score"' in chosen and "席" not in chosen
    assert re.search(r"の勝ち", chosen)


def test_a_penalty_slips_code_leads_a_player_to_no_judges_page(world: World) -> None:
    from urllib.parse import urlsplit

    from shinpan.reports.slip import penalty_slip

    w = world
    number = w.record(w.players[0], "ingame.slow-play")
    path = urlsplit(penalty_slip(w.db, w.event, number).url).path
    assert path == f"/slip/{w.event}/{number}"
    judge = w.clients["floor_judge"].http.get(path, follow_redirects=False)
    assert judge.status_code == 303 and judge.headers["location"] == f"/events/{w.event}/rulings/{number}"
    player = w.clients["signed_out"].get(path)
    assert player.status_code == 200 and 'id="slip-link"' in player.text
    assert "ジャッジ用" in player.text and "/login" not in player.url.path
    token = publish.publish(w.db, w.event, names="handles").token
    assert f'href="/p/{token}"' in w.clients["signed_out"].get(path).text


def test_a_correction_gives_a_handle_that_survives_export_and_import(world: World, tmp_path: Path) -> None:
    from shinpan.files import transfer
    from shinpan.files.csvio import PlayerRow
    from shinpan.services import players
    from shinpan.store.db import Database
    from shinpan.store.public import handles

    w = world
    number = w.players[1]
    page = w.clients["head_judge"].get(f"/events/{w.event}/players").text
    was = players.registry(w.db, w.event).players
    person = next(p for p in was if p.number == number)
    done = w.clients["head_judge"].http.post(
        f"/events/{w.event}/players/{number}/correct",
        data={"csrf_token": csrf_in(page), "command_id": w.cid("handle"), "name": person.name,
              "reading": person.reading, "club": person.club or "", "handle": "kana_chan"},
    )  # fmt: skip
    assert done.status_code in (200, 303)
    assert players.registry(w.db, w.event).handles[number] == "kana_chan"
    assert 'value="kana_chan"' in w.clients["head_judge"].get(f"/events/{w.event}/players").text
    with pytest.raises(InvalidInput, match="nothing was changed"):  # the same handle again
        players.correct_player(
            w.db, w.event, PlayerRow(number, person.name, person.reading, person.club, "kana_chan")
        )
    data = transfer.export_event(w.db, w.event)
    other = Database(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        transfer.import_event(other, data)
        with other.read() as conn:
            assert handles(conn, w.event)[number] == "kana_chan"
    finally:
        other.close()
